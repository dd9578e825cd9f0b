// Equation 1 of the seed (free energy).
#include "map/anneal/energy.hpp"

#include <limits>

#include "base/error.hpp"
#include "distance_table.hpp"

namespace tofa {

double node_distance(const Topology& topology, int a, int b, DistanceMetric metric) {
  const anneal::DistanceTable table(topology, {a, b}, metric);
  return table.distance(0, 1);
}

double FreeEnergy::ratio() const {
  if (lower_bound > 0) return energy / lower_bound;
  return energy > 0 ? std::numeric_limits<double>::infinity() : 1.0;
}

double free_energy(const CommGraph& graph, const Topology& topology,
                   const std::vector<int>& placement, DistanceMetric metric) {
  if (placement.size() != static_cast<std::size_t>(graph.task_count()))
    throw Error("placement has " + std::to_string(placement.size()) + " tasks, the graph " +
                std::to_string(graph.task_count()));
  // Sites are the placement's nodes themselves; DistanceTable checks their range.
  const anneal::DistanceTable table(topology, placement, metric);
  double energy = 0;
  for (int task = 0; task < graph.task_count(); ++task) {
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      const int partner = graph.adjacency()[k];
      if (partner > task) energy += graph.bytes()[k] * table.distance(task, partner);
    }
  }
  return energy;
}

FreeEnergy free_energy_of(const CommGraph& graph, const Topology& topology,
                          const std::vector<int>& placement, int tasks_per_node,
                          DistanceMetric metric) {
  FreeEnergy result;
  result.energy = free_energy(graph, topology, placement, metric);
  result.lower_bound = free_energy_lower_bound(
      graph, topology, tasks_per_node > 0 ? tasks_per_node : topology.cores_per_node(), metric);
  return result;
}

}  // namespace tofa
