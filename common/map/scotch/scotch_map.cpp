#include "scotch_map.hpp"

#include <algorithm>
#include <climits>
#include <cmath>

#include "map/capacity_repair.hpp"
#include "scotch_target.hpp"

namespace tofa {
namespace {

constexpr double kBalanceRatio = 0.05;

/// The first `needed` consecutive candidates (in candidate order) whose
/// outage is 0, or an empty vector.
std::vector<int> first_fault_free_run(const MappingRequest& request,
                                      const std::vector<int>& candidates, int needed) {
  int run_length = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    run_length = outage_of(request, candidates[i]) > 0 ? 0 : run_length + 1;
    if (run_length == needed)
      return std::vector<int>(candidates.begin() + (i + 1 - needed), candidates.begin() + i + 1);
  }
  return {};
}

std::vector<double> outage_per_node(const MappingRequest& request) {
  std::vector<double> outage(request.topology->node_count(), 0.0);
  for (int node = 0; node < request.topology->node_count(); ++node)
    outage[node] = outage_of(request, node);
  return outage;
}

/// Maps the graph onto `target` with Scotch, then repairs capacity.
Placement scotch_map_onto(const MappingRequest& request,
                          const std::shared_ptr<const scotch::Target>& target, int slots,
                          scotch::Lock& held) {
  const int tasks = request.graph->task_count();
  scotch::Graph graph = scotch::weighted_graph(*request.graph, target->max_distance());
  SCOTCH_Strat* strategy =
      scotch::map_strategy(SCOTCH_STRATDEFAULT, SCOTCH_archSize(target->arch()), kBalanceRatio, held);
  scotch::SingleThreadGraph bound(graph, static_cast<SCOTCH_Num>(request.seed % INT_MAX));
  std::vector<SCOTCH_Num> terminals(tasks);
  scotch::check(SCOTCH_graphMap(bound.get(), target->arch(), strategy, terminals.data()),
                "SCOTCH_graphMap");

  Placement placement(tasks);
  for (int task = 0; task < tasks; ++task)
    placement[task] = target->node_of_terminal(terminals[task]);
  repair_capacity(request, target->nodes(), slots, placement);
  check_placement(request, placement);
  return placement;
}

}  // namespace

Placement map_onto_nodes(const MappingRequest& request, const std::vector<int>& nodes) {
  const int tasks = request.graph->task_count();
  if (nodes.size() == 1) {
    // Nothing to map; and Scotch 7.0.3 crashes building a one-terminal
    // sub-architecture (_SCOTCHarchSubArchBuild), which any small job reached.
    Placement placement(tasks, nodes.front());
    check_placement(request, placement);
    return placement;
  }
  scotch::Lock held = scotch::lock();
  // Listing 1.1 maps onto the topology graph weighted by Equation 1: a
  // fault-free set's routes may still cross a faulty node.
  const std::vector<double> outage = outage_per_node(request);
  auto target = any_faulty(outage) ? scotch::fault_weighted_target(*request.topology, nodes, outage,
                                                           request.fault_cost, held)
                           : scotch::topology_target(*request.topology, nodes, held);
  return scotch_map_onto(request, target, effective_slots(request), held);
}

Placement map_fault_free_run_or(const MappingRequest& request, FallbackNodes fallback) {
  const Capacity fit = check_capacity(request);
  if (fit.tasks == 0) return {};
  const std::vector<int> run = first_fault_free_run(request, fit.candidates, fit.nodes_needed());
  return map_onto_nodes(request,
                        run.empty() ? fallback(request, fit.candidates, fit.nodes_needed()) : run);
}

}  // namespace tofa
