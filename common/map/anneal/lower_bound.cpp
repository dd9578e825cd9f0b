// F_min of the seed: every task's partners "dealt out" by decreasing traffic
// into shells of increasing distance around it.
#include <algorithm>
#include <functional>
#include <numeric>

#include "../../tofa/energy.hpp"
#include "../../tofa/error.hpp"
#include "distance_table.hpp"

namespace tofa {

double free_energy_lower_bound(const CommGraph& graph, const Topology& topology,
                               int tasks_per_node, DistanceMetric metric) {
  if (tasks_per_node < 1)
    throw Error("tasks per node must be at least 1, got " + std::to_string(tasks_per_node));
  // The full torus is vertex-transitive: node 0's distances are everyone's.
  std::vector<int> all(topology.node_count());
  std::iota(all.begin(), all.end(), 0);
  const anneal::DistanceTable torus(topology, all, metric, /*wrap_all=*/true);
  std::vector<double> shell(topology.node_count());
  for (int node = 0; node < topology.node_count(); ++node) shell[node] = torus.distance(0, node);
  std::sort(shell.begin() + 1, shell.end());

  // Slot k (0-based) of a task: the first tasks_per_node - 1 share its node,
  // then each further node in distance order offers tasks_per_node slots.
  auto slot_distance = [&](std::size_t k) {
    const std::size_t own = static_cast<std::size_t>(tasks_per_node) - 1;
    if (k < own) return 0.0;
    const std::size_t node = 1 + (k - own) / tasks_per_node;
    return node < shell.size() ? shell[node] : shell.back();
  };

  double twice_bound = 0;
  std::vector<double> weights;
  for (int task = 0; task < graph.task_count(); ++task) {
    weights.assign(graph.bytes().begin() + graph.offsets()[task],
                   graph.bytes().begin() + graph.offsets()[task + 1]);
    std::sort(weights.begin(), weights.end(), std::greater<double>());
    for (std::size_t k = 0; k < weights.size(); ++k) twice_bound += weights[k] * slot_distance(k);
  }
  return twice_bound / 2;
}

}  // namespace tofa
