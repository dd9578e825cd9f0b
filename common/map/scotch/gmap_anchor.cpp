#include "gmap_anchor.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "base/error.hpp"
#include "map/capacity_repair.hpp"
#include "scotch_target.hpp"

namespace tofa {
namespace {

bool has_traffic(const CommGraph& graph) {
  return std::any_of(graph.bytes().begin(), graph.bytes().end(), [](double b) { return b > 0; });
}

/// SCOTCH_graphMap with Scotch's default strategy onto `nodes`, then
/// capacity repaired within them.
Placement default_map_onto(const MappingRequest& request, const std::vector<int>& nodes) {
  const int slots = effective_slots(request);
  const int tasks = request.graph->task_count();
  Placement placement(tasks, nodes.front());
  // One node: nothing to map (and Scotch 7.0.3 crashes on a one-terminal
  // sub-architecture). No traffic: Scotch only balances.
  if (tasks > 0 && nodes.size() > 1 && has_traffic(*request.graph)) {
    scotch::Lock held = scotch::lock();
    const auto target = scotch::topology_target(*request.topology, nodes, held);
    scotch::Graph graph = scotch::weighted_graph(*request.graph, target->max_distance());
    scotch::Strat default_strategy;
    scotch::SingleThreadGraph bound(graph, static_cast<SCOTCH_Num>(request.seed % INT_MAX));
    std::vector<SCOTCH_Num> terminals(tasks);
    scotch::check(
        SCOTCH_graphMap(bound.get(), target->arch(), default_strategy.get(), terminals.data()),
        "SCOTCH_graphMap");
    for (int task = 0; task < tasks; ++task)
      placement[task] = target->node_of_terminal(terminals[task]);
  }
  repair_capacity(request, nodes, slots, placement);
  check_placement(request, placement);
  return placement;
}

}  // namespace

Placement scotch_gmap_anchor(const MappingRequest& request) {
  return default_map_onto(request, check_capacity(request).candidates);
}

std::vector<int> packed_anchor_nodes(const Topology& topology, const std::vector<int>& candidates,
                                     int needed) {
  const int count = static_cast<int>(candidates.size());
  if (needed < 1 || needed > count)
    throw Error("packed anchor: " + std::to_string(needed) + " nodes wanted of " +
                std::to_string(count) + " candidates");
  std::vector<int> best;
  long long best_hops = std::numeric_limits<long long>::max();
  std::vector<int> order(count);
  for (int seed = 0; seed < count; ++seed) {
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return topology.hop_distance(candidates[seed], candidates[a]) <
             topology.hop_distance(candidates[seed], candidates[b]);
    });
    order.resize(needed);
    long long hops = 0;
    for (int i = 0; i < needed; ++i)
      for (int j = 0; j < i; ++j)
        hops += topology.hop_distance(candidates[order[i]], candidates[order[j]]);
    if (hops < best_hops) {
      best_hops = hops;
      std::sort(order.begin(), order.end());  // candidate order
      best.clear();
      for (int position : order) best.push_back(candidates[position]);
    }
    order.resize(count);
  }
  return best;
}

Placement scotch_packed_anchor(const MappingRequest& request) {
  const Capacity fit = check_capacity(request);
  if (fit.tasks == 0) return {};
  return default_map_onto(
      request, packed_anchor_nodes(*request.topology, fit.candidates, fit.nodes_needed()));
}

}  // namespace tofa
