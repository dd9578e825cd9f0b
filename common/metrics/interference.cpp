#include "metrics/interference.hpp"

#include <string>

#include "base/error.hpp"
#include "metrics/metrics.hpp"

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

}  // namespace

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
