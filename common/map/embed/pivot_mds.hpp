// Coordinates for the tasks of a communication graph that has none: Pivot
// MDS (Brandes and Pich, "Eigensolver methods for progressive
// multidimensional scaling of large data", 2006). Hop distances from a few
// pivots chosen farthest-first stand in for the full distance matrix; the
// double-centred n x pivots matrix's leading singular vectors give
// coordinates in O(pivots x (tasks + edges)). On a communication graph that
// comes from a physical domain (halo exchanges, neighbour lists) they
// recover the domain's shape, which is what a torus mapping wants to follow.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace tofa {
namespace embed {

/// Row-major tasks x `axes` coordinates, axes by decreasing spread. Edges
/// count as one hop whatever their bytes; a task its component cannot reach
/// is one hop beyond the farthest. Deterministic. `axes` >= 1, `pivots` >= axes.
std::vector<double> pivot_mds(const CommGraph& graph, int axes, int pivots);

}  // namespace embed
}  // namespace tofa
