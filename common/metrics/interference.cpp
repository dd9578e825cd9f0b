#include "metrics/interference.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "base/error.hpp"
#include "metrics/metrics.hpp"
#include "metrics/tcp_flows.hpp"

namespace tofa {
namespace {

/// The mean load of the links that carry any; 0 when none does.
double mean_loaded_link(const std::vector<double>& background) {
  double total = 0;
  int loaded = 0;
  for (double load : background)
    if (load > 0) {
      total += load;
      ++loaded;
    }
  return loaded ? total / loaded : 0.0;
}

/// Calls visit(from node, to node, bytes) for every flow between two nodes of
/// the jobs, in job, task and edge order.
template <typename Visit>
void for_each_flow(const std::vector<RunningJobRoutes>& jobs, Visit visit) {
  for (const RunningJobRoutes& job : jobs) {
    const CommGraph& graph = *job.graph;
    const std::vector<int>& placement = *job.placement;
    for (int task = 0; task < graph.task_count(); ++task)
      for (std::int64_t k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
        const int from = placement[task], to = placement[graph.adjacency()[k]];
        if (from != to && graph.sent(k) > 0) visit(from, to, graph.sent(k));
      }
  }
}

}  // namespace

std::shared_ptr<const std::vector<double>> link_criticality(const Topology& topology,
                                                       const std::vector<RunningJobRoutes>& jobs) {
  std::vector<double> usage(topology.link_slot_count(), 0.0);
  std::vector<int> route;
  for_each_flow(jobs, [&](int from, int to, double bytes) {
    visit_tcp_flow(topology, from, to, bytes, route, [&](int link, double use, int) { usage[link] += use; });
  });
  // A flow's time: its hops times its busiest link's usage.
  std::vector<double> flow_times;
  for_each_flow(jobs, [&](int from, int to, double bytes) {
    double busiest = 0;
    int hops = 0;
    visit_tcp_flow(topology, from, to, bytes, route, [&](int link, double, int p) {
      busiest = std::max(busiest, usage[link]);
      hops = p;
    });
    flow_times.push_back(hops * busiest);
  });
  if (flow_times.empty()) return nullptr;
  const double slowest = *std::max_element(flow_times.begin(), flow_times.end());
  auto critical = std::make_shared<std::vector<double>>(usage.size(), 0.0);
  std::size_t flow = 0;
  for_each_flow(jobs, [&](int from, int to, double bytes) {
    const double weight = (flow_times[flow++] / slowest - kCriticalShare) / (1 - kCriticalShare);
    if (weight > 0)
      visit_tcp_flow(topology, from, to, bytes, route, [&](int link, double, int) {
        (*critical)[link] = std::max((*critical)[link], weight);
      });
  });
  return critical;
}

std::shared_ptr<const std::vector<double>> interference_link_costs(
    const std::vector<double>& background, double weight) {
  if (!(weight >= 0)) throw Error("interference weight must be >= 0, got " + std::to_string(weight));
  const double mean = mean_loaded_link(background);
  if (weight == 0 || mean == 0) return nullptr;
  auto costs = std::make_shared<std::vector<double>>(background.size(), 0.0);
  for (std::size_t l = 0; l < background.size(); ++l)
    if (background[l] > 0) (*costs)[l] = weight * background[l] / mean;
  return costs;
}

void add_link_criticality(FaultCost& cost, const Topology& topology,
                          const std::vector<RunningJobRoutes>& jobs, double weight) {
  if (!cost.shared_links || !cost.link_extra) return;
  cost.link_criticality = link_criticality(topology, jobs);
  if (!cost.link_criticality) return;
  auto extra = std::make_shared<std::vector<double>>(*cost.link_extra);
  for (std::size_t link = 0; link < extra->size(); ++link)
    (*extra)[link] += weight * kCriticalLinkHops * (*cost.link_criticality)[link];
  cost.link_extra = std::move(extra);
}

void add_interference(FaultCost& cost, const Topology& topology,
                      const std::vector<double>& background, double weight) {
  const std::vector<double> loads = cost.shared_links ? both_ways(topology, background) : background;
  cost.link_extra = interference_link_costs(loads, weight);
  cost.link_extra_bytes = cost.link_extra ? mean_loaded_link(loads) / weight : 0.0;
}

std::vector<double> both_ways(const Topology& topology, const std::vector<double>& loads) {
  if (loads.size() != static_cast<std::size_t>(topology.link_slot_count()))
    throw Error("link loads: " + std::to_string(loads.size()) + " entries, expected " +
                std::to_string(topology.link_slot_count()));
  std::vector<double> out = loads;
  for (std::size_t link = 0; link < loads.size(); ++link)
    if (loads[link] != 0) out[topology.reverse_link_id(static_cast<int>(link))] += loads[link];
  return out;
}

double shared_traffic_fraction(const CommGraph& graph, const Topology& topology,
                               const std::vector<int>& placement,
                               const std::vector<double>& background) {
  if (background.size() != static_cast<std::size_t>(topology.link_slot_count()))
    throw Error("link loads: " + std::to_string(background.size()) + " entries, expected " +
                std::to_string(topology.link_slot_count()));
  return shared_share(sparse_link_loads(graph, topology, placement), background);
}

double shared_share(const std::vector<std::pair<int, double>>& own,
                    const std::vector<double>& others) {
  double total = 0, shared = 0;
  for (const auto& [link, bytes] : own) {
    total += bytes;
    if (others[link] > 0) shared += bytes;
  }
  return total > 0 ? shared / total : 0.0;
}

}  // namespace tofa
