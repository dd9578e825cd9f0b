// Bhanot et al.'s free energy of a placement and its "dealt out" lower bound
// (Optimizing task layout on the Blue Gene/L supercomputer, Equation 1).
#pragma once

#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "map/anneal/distance_metric.hpp"
#include "topology/topology.hpp"

namespace tofa {

/// Distance between nodes a and b of `topology` under `metric` (0 when a == b).
double node_distance(const Topology& topology, int a, int b, DistanceMetric metric);

/// F = sum over ordered task pairs of C(i,j) d(pi(i), pi(j)). The graph holds
/// the symmetrized weight G(i,j) + G(j,i) per undirected edge, so this is the
/// sum over undirected edges of weight * distance (hop-bytes for Hops).
/// Throws Error when placement has the wrong size or a node is out of range.
double free_energy(const CommGraph& graph, const Topology& topology,
                   const std::vector<int>& placement, DistanceMetric metric = DistanceMetric::Hops);

/// F_min: for every task, its partners are dealt out by decreasing weight to
/// the nearest free slots (first the task's own node, which holds
/// `tasks_per_node` - 1 others, then every node in order of distance, each
/// holding `tasks_per_node`); F_min is half the sum of these per-task minima
/// (each edge is seen from both ends). Distances are those of the full torus
/// with the topology's dimensions, which equal the topology's on a torus and
/// are never larger on a mesh or a subset of nodes, so F_min is a lower bound
/// of F for every placement with at most `tasks_per_node` tasks per node.
/// O(nodes log nodes + edges log degree). Throws Error when tasks_per_node < 1.
double free_energy_lower_bound(const CommGraph& graph, const Topology& topology,
                               int tasks_per_node, DistanceMetric metric = DistanceMetric::Hops);

/// F, F_min and F / F_min of one placement.
struct FreeEnergy {
  double energy = 0;       ///< F
  double lower_bound = 0;  ///< F_min
  /// F / F_min; 1 when both are 0, +infinity when only F_min is 0 (every
  /// partner fits on its task's own node but the placement spreads them).
  double ratio() const;
};

/// F and F_min together; `tasks_per_node` 0 means topology.cores_per_node().
/// For comparing strategies pass the slots every strategy was allowed, so that
/// the same F_min normalizes them all.
FreeEnergy free_energy_of(const CommGraph& graph, const Topology& topology,
                          const std::vector<int>& placement, int tasks_per_node = 0,
                          DistanceMetric metric = DistanceMetric::Hops);

}  // namespace tofa
