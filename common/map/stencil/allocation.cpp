#include "allocation.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace tofa {
namespace stencil {
namespace {

/// The shift that maps `value` to its unwrapped position along a ring of
/// `size`: the coordinate just after the longest run of unused values becomes 0.
int ring_origin(const std::vector<char>& used, int size) {
  int best_start = 0, best_length = 0;
  for (int start = 0; start < size; ++start) {
    if (used[start] || used[(start + size - 1) % size] == 0) continue;  // not a run's first
    int length = 0;
    while (length < size && !used[(start + length) % size]) ++length;
    if (length > best_length) {
      best_length = length;
      best_start = start;
    }
  }
  return best_length == 0 ? 0 : (best_start + best_length) % size;
}

}  // namespace

Allocation make_allocation(const MappingRequest& request, int tasks, const std::string& strategy) {
  check_capacity(request);
  const Topology& topology = *request.topology;
  if (topology.dimension_count() > 3) {
    throw Error(strategy + ": needs a topology of 1 to 3 dimensions, got " +
                std::to_string(topology.dimension_count()));
  }
  const std::vector<int> candidates = effective_candidates(request);
  const int slots = effective_slots(request);
  Allocation allocation;
  allocation.rank_node.reserve(tasks);
  allocation.rank_raw.reserve(tasks);
  for (int rank = 0; rank < tasks; ++rank) {
    const int node = candidates[rank / slots];
    allocation.rank_node.push_back(node);
    Triple raw{0, 0, 0};
    const std::vector<int> coords = topology.coords(node);
    std::copy(coords.begin(), coords.end(), raw.begin());
    allocation.rank_raw.push_back(raw);
  }

  Triple origin{0, 0, 0};
  for (int axis = 0; axis < topology.dimension_count(); ++axis) {
    const int size = topology.dims()[axis];
    if (!topology.wrap()[axis] || size < 2) continue;
    std::vector<char> used(size, 0);
    for (const Triple& raw : allocation.rank_raw) used[raw[axis]] = 1;
    origin[axis] = ring_origin(used, size);
  }
  allocation.rank_coord.reserve(tasks);
  for (const Triple& raw : allocation.rank_raw) {
    Triple coord = raw;
    for (int axis = 0; axis < topology.dimension_count(); ++axis) {
      if (topology.wrap()[axis])
        coord[axis] = (raw[axis] - origin[axis] + topology.dims()[axis]) % topology.dims()[axis];
    }
    allocation.rank_coord.push_back(coord);
  }
  if (!allocation.rank_coord.empty()) {
    allocation.low = allocation.high = allocation.rank_coord[0];
    for (const Triple& coord : allocation.rank_coord)
      for (int axis = 0; axis < 3; ++axis) {
        allocation.low[axis] = std::min(allocation.low[axis], coord[axis]);
        allocation.high[axis] = std::max(allocation.high[axis], coord[axis]);
      }
  }
  return allocation;
}

RankDistance::RankDistance(const Topology& topology, const Allocation& allocation)
    : raw_(&allocation.rank_raw) {
  for (int axis = 0; axis < topology.dimension_count() && axis < 3; ++axis) {
    size_[axis] = topology.dims()[axis];
    wrap_[axis] = topology.wrap()[axis];
  }
}

}  // namespace stencil
}  // namespace tofa
