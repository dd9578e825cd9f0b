// The nodes of a slot pool grouped in boxes of the torus, for finding the
// nearest free node without visiting the full ones around it: a box's
// lower bound (hops from the origin to its nearest point) rules out most
// boxes, and only boxes whose bound does not exceed the best node found so
// far are scanned.
#pragma once

#include <vector>

#include "topology/topology.hpp"

namespace tofa {

class FreeNodeBoxes {
 public:
  /// `nodes`: the pool's nodes; every one starts free.
  FreeNodeBoxes(const Topology& topology, const std::vector<int>& nodes);

  /// `node` has no free slot any more.
  void mark_full(int node);

  /// Of the free nodes, the one with the fewest hops from `origin`, ties
  /// broken by `better(a, b)` (true when a wins); -1 when none is free.
  template <typename Better>
  int nearest(int origin, const Better& better) const;

 private:
  int hops(const int* origin_coords, int node) const;
  int lower_bound(const int* origin_coords, int box) const;
  void coords_of(int node, int* out) const;

  const Topology& topology_;
  int dimensions_;
  std::vector<int> box_of_;                // per topology node id, -1 outside the pool
  std::vector<std::vector<int>> members_;  // per box: its free nodes, in no order
  std::vector<int> member_index_;          // per topology node id: index in its box's members_
  std::vector<int> low_, high_;            // per box and dimension: its coordinate range
  std::vector<int> open_boxes_;            // boxes with a free node, in no order
  std::vector<int> open_index_;            // per box: index in open_boxes_, -1 when full
};

template <typename Better>
int FreeNodeBoxes::nearest(int origin, const Better& better) const {
  int here[16];
  coords_of(origin, here);
  int best = -1, best_hops = 0;
  auto scan = [&](int box) {
    for (int node : members_[box]) {
      const int h = hops(here, node);
      if (best < 0 || h < best_hops || (h == best_hops && better(node, best))) {
        best = node;
        best_hops = h;
      }
    }
  };
  // The box of lowest bound first, so that the bound prunes the others.
  int first = -1, first_bound = 0;
  for (int box : open_boxes_) {
    const int bound = lower_bound(here, box);
    if (first < 0 || bound < first_bound) first = box, first_bound = bound;
  }
  if (first < 0) return -1;
  scan(first);
  for (int box : open_boxes_)
    if (box != first && lower_bound(here, box) <= best_hops) scan(box);
  return best;
}

}  // namespace tofa
