#include "free_node_boxes.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/error.hpp"

namespace tofa {
namespace {

int ring_gap(int a, int b, int size, bool wraps) {
  const int gap = std::abs(a - b);
  return wraps ? std::min(gap, size - gap) : gap;
}

}  // namespace

FreeNodeBoxes::FreeNodeBoxes(const Topology& topology, const std::vector<int>& nodes)
    : topology_(topology), dimensions_(topology.dimension_count()) {
  if (dimensions_ > 16) throw Error("internal: at most 16 dimensions");
  const std::vector<int>& dims = topology.dims();
  // About sqrt(nodes) boxes of about sqrt(nodes) nodes: a query computes
  // every open box's bound and scans a few boxes.
  const double per_dimension =
      std::pow(std::max<double>(1, nodes.size()), 0.5 / std::max(1, dimensions_));
  const int side = std::max(1, static_cast<int>(std::ceil(per_dimension)));
  std::vector<int> boxes_along(dimensions_);
  int box_count = 1;
  for (int d = 0; d < dimensions_; ++d) {
    boxes_along[d] = (dims[d] + side - 1) / side;
    box_count *= boxes_along[d];
  }
  members_.resize(box_count);
  low_.resize(static_cast<std::size_t>(box_count) * dimensions_);
  high_.resize(low_.size());
  for (int box = 0; box < box_count; ++box)
    for (int d = 0, rest = box; d < dimensions_; ++d) {
      const int index = rest % boxes_along[d];
      rest /= boxes_along[d];
      low_[box * dimensions_ + d] = index * side;
      high_[box * dimensions_ + d] = std::min(dims[d], (index + 1) * side) - 1;
    }
  box_of_.assign(topology.node_count(), -1);
  member_index_.assign(topology.node_count(), -1);
  int coords[16];
  for (int node : nodes) {
    if (box_of_[node] >= 0) continue;
    coords_of(node, coords);
    int box = 0;
    for (int d = dimensions_ - 1; d >= 0; --d) box = box * boxes_along[d] + coords[d] / side;
    box_of_[node] = box;
    member_index_[node] = static_cast<int>(members_[box].size());
    members_[box].push_back(node);
  }
  open_index_.assign(box_count, -1);
  for (int box = 0; box < box_count; ++box)
    if (!members_[box].empty()) {
      open_index_[box] = static_cast<int>(open_boxes_.size());
      open_boxes_.push_back(box);
    }
}

void FreeNodeBoxes::mark_full(int node) {
  const int box = box_of_[node];
  if (box < 0 || member_index_[node] < 0) return;
  std::vector<int>& members = members_[box];
  const int index = member_index_[node];
  members[index] = members.back();
  member_index_[members[index]] = index;
  members.pop_back();
  member_index_[node] = -1;
  if (!members.empty()) return;
  const int open = open_index_[box];
  open_boxes_[open] = open_boxes_.back();
  open_index_[open_boxes_[open]] = open;
  open_boxes_.pop_back();
  open_index_[box] = -1;
}

void FreeNodeBoxes::coords_of(int node, int* out) const {
  const std::vector<int>& dims = topology_.dims();
  for (int d = 0; d < dimensions_; ++d) {
    out[d] = node % dims[d];
    node /= dims[d];
  }
}

int FreeNodeBoxes::hops(const int* origin_coords, int node) const {
  const std::vector<int>& dims = topology_.dims();
  const std::vector<bool>& wrap = topology_.wrap();
  int total = 0;
  for (int d = 0; d < dimensions_; ++d) {
    total += ring_gap(origin_coords[d], node % dims[d], dims[d], wrap[d]);
    node /= dims[d];
  }
  return total;
}

int FreeNodeBoxes::lower_bound(const int* origin_coords, int box) const {
  const std::vector<int>& dims = topology_.dims();
  const std::vector<bool>& wrap = topology_.wrap();
  int total = 0;
  for (int d = 0; d < dimensions_; ++d) {
    const int x = origin_coords[d];
    const int low = low_[box * dimensions_ + d], high = high_[box * dimensions_ + d];
    if (x >= low && x <= high) continue;
    // Outside the range, its nearest point is one of its ends.
    total += std::min(ring_gap(x, low, dims[d], wrap[d]), ring_gap(x, high, dims[d], wrap[d]));
  }
  return total;
}

}  // namespace tofa
