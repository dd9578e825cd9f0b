// Which free box a torus3d job gets: the anchor choice of Slurm 26.05's
// eval_nodes_torus3d.c (see strategy.cpp for the policy with references).
#pragma once

#include <vector>

#include "shapes.hpp"

namespace tofa {
namespace torus3d {

/// A box of the torus: `dims` cells from `corner` on each axis, wrapping
/// around the axis where it runs past the end.
struct Box {
  Triple corner{0, 0, 0};
  Triple dims{1, 1, 1};
};

/// The box's node ids, x fastest from the corner.
std::vector<int> box_nodes(const Grid& grid, const Box& box);

/// The chosen box and the shape it has (an index into the shapes given).
struct BoxChoice {
  bool found = false;
  int shape = -1;
  Box box;
};

/// Among `shapes` (ordered by size, see order_by_size) of exactly `nodes`
/// nodes, the first shape with an anchor whose box is entirely free; among
/// that shape's free anchors the one that breaks the fewest entirely free
/// boxes of the next larger shape, the first in anchor order (x outermost,
/// z innermost) on ties. On a mesh axis a box may not cross the edge.
/// `free[node]` is non-zero for a free node (grid.node_count() entries).
/// Returns found = false when no such box exists. O(N) to index the free
/// nodes, O(1) per anchor tested, plus the overlapping larger anchors of
/// each free one when it has rivals.
BoxChoice choose_box(const Grid& grid, const std::vector<Shape>& shapes, long long nodes,
                     const std::vector<char>& free);

}  // namespace torus3d
}  // namespace tofa
