// The ranks a stencil job is mapped onto, with coordinates the geometric
// strategies can compare.
#pragma once

#include <vector>

#include "job_shape.hpp"
#include "map/mapper.hpp"

namespace tofa {
namespace stencil {

/// The job's ranks ("slots"): the first ceil(tasks / slots) candidate nodes in
/// preference order, `slots` consecutive ranks per node (the last node may get
/// fewer), so rank r lives on node rank_node[r].
///
/// Coordinates are unwrapped: along a torus ring the allocation is cut at its
/// largest run of unused coordinates, so an allocation that crosses the ring's
/// seam is still one box, e.g. x in {6, 7, 0, 1} on a ring of 8 becomes 0..3.
/// Topologies with fewer than 3 dimensions get 0 for the missing axes.
struct Allocation {
  std::vector<int> rank_node;
  std::vector<Triple> rank_coord;  ///< unwrapped coordinates of each rank
  std::vector<Triple> rank_raw;    ///< topology coordinates of each rank
  Triple low{0, 0, 0};             ///< bounding box of rank_coord, inclusive
  Triple high{0, 0, 0};
  Triple extent() const { return {high[0] - low[0] + 1, high[1] - low[1] + 1, high[2] - low[2] + 1}; }
  int rank_count() const { return static_cast<int>(rank_node.size()); }
};

/// Builds the allocation for `tasks` ranks. Throws Error when the tasks do
/// not fit (check_capacity's text) or the topology has more than 3 dimensions.
Allocation make_allocation(const MappingRequest& request, int tasks, const std::string& strategy);

/// Hop distance between ranks under dimension-order routing; the same value as
/// Topology::hop_distance of their nodes, computed from cached coordinates.
class RankDistance {
 public:
  RankDistance(const Topology& topology, const Allocation& allocation);
  int operator()(int rank_a, int rank_b) const {
    int hops = 0;
    for (int axis = 0; axis < 3; ++axis) {
      int delta = (*raw_)[rank_a][axis] - (*raw_)[rank_b][axis];
      if (delta < 0) delta = -delta;
      if (wrap_[axis] && 2 * delta > size_[axis]) delta = size_[axis] - delta;
      hops += delta;
    }
    return hops;
  }

 private:
  const std::vector<Triple>* raw_;
  Triple size_{1, 1, 1};
  bool wrap_[3] = {false, false, false};
};

}  // namespace stencil
}  // namespace tofa
