// Placement quality: hops, hop-bytes, dilation, link loads, abort probability.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "faults/faults.hpp"
#include "metrics/metrics.hpp"

namespace tofa {

namespace {


// Calls visit(a, b, bytes) once per undirected edge {a, b}, a < b.
template <typename Visit>
void for_each_edge(const CommGraph& graph, Visit visit) {
  const auto& offsets = graph.offsets();
  const auto& adjacency = graph.adjacency();
  const auto& bytes = graph.bytes();
  for (int a = 0; a < graph.task_count(); ++a)
    for (std::int64_t k = offsets[a]; k < offsets[a + 1]; ++k)
      if (adjacency[k] > a) visit(a, adjacency[k], bytes[k]);
}

// Per link, in ascending link id, the bytes the job's routes put on it.
// Each link's contributions are summed in edge order, as a dense per-link
// vector would sum them, so both give the same bytes to the last bit.
std::vector<std::pair<int, double>> unchecked_sparse_link_loads(const CommGraph& graph,
                                                                const Topology& topology,
                                                                const std::vector<int>& placement) {
  std::vector<std::pair<int, double>> loads;
  const auto add_route = [&](int from, int to, double bytes) {
    for (const Link& link : topology.route(from, to).links)
      loads.emplace_back(topology.link_id(link), bytes);
  };
  for_each_edge(graph, [&](int a, int b, double bytes) {
    const int from = placement[a];
    const int to = placement[b];
    if (from == to || !(bytes > 0)) return;
    add_route(from, to, bytes / 2);
    add_route(to, from, bytes / 2);
  });
  std::stable_sort(loads.begin(), loads.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t kept = 0;
  for (std::size_t i = 0; i < loads.size(); ++i) {
    if (kept > 0 && loads[kept - 1].first == loads[i].first)
      loads[kept - 1].second += loads[i].second;
    else
      loads[kept++] = loads[i];
  }
  loads.resize(kept);
  return loads;
}

}  // namespace

std::vector<std::pair<int, double>> sparse_link_loads(const CommGraph& graph,
                                                      const Topology& topology,
                                                      const std::vector<int>& placement) {
  check_placement_shape(graph, topology.node_count(), placement);
  return unchecked_sparse_link_loads(graph, topology, placement);
}

std::vector<double> link_loads(const CommGraph& graph, const Topology& topology,
                               const std::vector<int>& placement) {
  std::vector<double> loads(topology.link_slot_count(), 0.0);
  for (const auto& [link, bytes] : sparse_link_loads(graph, topology, placement))
    loads[link] = bytes;
  return loads;
}

double mims(const CommGraph& graph, const std::vector<int>& group_of) {
  const int tasks = graph.task_count();
  if (group_of.size() != static_cast<std::size_t>(tasks)) {
    throw Error("MIMS: " + std::to_string(group_of.size()) + " group entries, expected " +
                std::to_string(tasks) + " (one per task)");
  }
  double worst = 0;
  for (int u = 0; u < tasks; ++u) {
    for (std::int64_t i = graph.offsets()[u]; i < graph.offsets()[u + 1]; ++i) {
      const int v = graph.adjacency()[i];
      if (group_of[u] != group_of[v]) worst = std::max(worst, graph.bytes()[i]);
    }
  }
  return worst;
}

PlacementMetrics evaluate_placement(const CommGraph& graph, const Topology& topology,
                                    const std::vector<int>& placement,
                                    const std::vector<double>& outage) {
  check_placement_shape(graph, topology.node_count(), placement);

  PlacementMetrics metrics;
  metrics.tasks = graph.task_count();

  std::vector<char> used(topology.node_count(), 0);
  for (int node : placement) {
    metrics.nodes_used += used[node] ? 0 : 1;
    used[node] = 1;
  }

  // Hop counts are small integers: integer sums keep the variance exact.
  std::int64_t edges = 0;
  std::int64_t hop_sum = 0;
  std::int64_t hop_square_sum = 0;
  for_each_edge(graph, [&](int a, int b, double bytes) {
    const int hops = topology.hop_distance(placement[a], placement[b]);
    ++edges;
    hop_sum += hops;
    hop_square_sum += static_cast<std::int64_t>(hops) * hops;
    metrics.max_hops = std::max(metrics.max_hops, hops);
    metrics.total_bytes += bytes;
    metrics.hop_bytes += bytes * hops;
  });
  if (edges > 0) {
    const double n = static_cast<double>(edges);
    metrics.average_hops = static_cast<double>(hop_sum) / n;
    // n * sum(h^2) - (sum h)^2 is exact in long double's 64-bit mantissa.
    const long double spread = static_cast<long double>(edges) * hop_square_sum -
                               static_cast<long double>(hop_sum) * hop_sum;
    metrics.hop_variance = static_cast<double>(spread / (static_cast<long double>(n) * n));
  }
  if (metrics.total_bytes > 0) metrics.dilation = metrics.hop_bytes / metrics.total_bytes;

  for (const auto& [link, load] : unchecked_sparse_link_loads(graph, topology, placement)) {
    ++metrics.links_used;
    metrics.max_link_load = std::max(metrics.max_link_load, load);
  }

  metrics.abort_probability = expected_abort_probability(topology, graph, placement, outage);
  metrics.mims = mims(graph, placement);
  return metrics;
}

}  // namespace tofa
