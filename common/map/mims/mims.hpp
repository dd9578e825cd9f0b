// MIMS packing (seed Chung et al.): group tasks into packs of at most k tasks,
// one pack per multicore node, minimising the Maximum Interconnective Message
// Size, the largest traffic between two tasks in different packs.
#pragma once

#include <vector>

#include "graph/graph.hpp"
#include "metrics/metrics.hpp"  // mims(), the objective

namespace tofa {

/// A partition of the tasks into packs.
struct Packing {
  int pack_size = 0;          ///< k: no pack holds more tasks
  int pack_count = 0;         ///< ceil(tasks / k); every pack holds at least one task
  std::vector<int> pack_of;   ///< task -> pack id in [0, pack_count)
  double mims = 0;            ///< MIMS of pack_of (see mims())
  bool optimal = false;       ///< mims_packing_is_optimal(pack_size)
};

/// True when mims_packing() returns a packing of minimum MIMS for this k:
/// k = 1, 2, 3, 4 and 6, whose feasibility tests are exact (the seed's
/// Algorithms 2, 4 and 5; 1 and 3 are the same idea with shorter tables).
/// Other k use a best-fit-decreasing feasibility test, which never accepts an
/// infeasible packing but may reject a feasible merge (a heuristic).
bool mims_packing_is_optimal(int pack_size);

/// The seed's Algorithm 1: pairs by decreasing bytes (ties in the order of
/// CommGraph::undirected_edges()); a pair's packs are merged when the merged
/// packs can still be bin-packed into ceil(tasks/k) bins of k tasks; the packs
/// are then combined into bins of k ("best effort" step 3: packs of the sizes
/// each bin needs, lowest task id first). Pack ids are numbered by their
/// lowest task id. O(m log m) for m edges with fixed k (the sort dominates;
/// the feasibility test is O(k)).
/// Throws Error when pack_size < 1.
Packing mims_packing(const CommGraph& graph, int pack_size);

/// The packs as super-tasks: pack p is task p; the bytes and messages of
/// every edge between two packs add up on the edge between them.
CommGraph pack_graph(const CommGraph& graph, const Packing& packing);

}  // namespace tofa
