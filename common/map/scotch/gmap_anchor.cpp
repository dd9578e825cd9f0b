#include "gmap_anchor.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "../capacity_repair.hpp"
#include "scotch_target.hpp"

namespace tofa {
namespace {

bool has_traffic(const CommGraph& graph) {
  return std::any_of(graph.bytes().begin(), graph.bytes().end(), [](double b) { return b > 0; });
}

}  // namespace

Placement scotch_gmap_anchor(const MappingRequest& request) {
  check_capacity(request);
  const std::vector<int> candidates = effective_candidates(request);
  const int slots = effective_slots(request);
  const int tasks = request.graph->task_count();
  Placement placement(tasks, candidates.front());
  // One candidate: nothing to map (and Scotch 7.0.3 crashes on a
  // one-terminal sub-architecture). No traffic: Scotch only balances.
  if (tasks > 0 && candidates.size() > 1 && has_traffic(*request.graph)) {
    scotch::Lock held = scotch::lock();
    const auto target = scotch::topology_target(*request.topology, candidates, held);
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
  repair_capacity(request, candidates, slots, placement);
  check_placement(request, placement);
  return placement;
}

}  // namespace tofa
