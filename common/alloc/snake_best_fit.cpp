// Snake best-fit allocation (seed Bunde, section 5.1 and Figure 15).
#include <algorithm>
#include <numeric>

#include "alloc/allocators.hpp"
#include "free_nodes.hpp"

namespace tofa {

std::vector<int> snake_curve(const Topology& topology) {
  const int axes = topology.dimension_count();
  std::vector<int> order(axes);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return topology.dims()[a] < topology.dims()[b];
  });
  std::vector<int> stride(axes, 1);
  for (int a = 1; a < axes; ++a) stride[a] = stride[a - 1] * topology.dims()[a - 1];
  // Walk the shortest axis; each slower axis repeats the walk so far,
  // reversed on its odd values.
  std::vector<int> curve{0};
  for (int axis : order) {
    std::vector<int> longer;
    longer.reserve(curve.size() * topology.dims()[axis]);
    for (int value = 0; value < topology.dims()[axis]; ++value) {
      if (value % 2 == 0) {
        for (int node : curve) longer.push_back(node + value * stride[axis]);
      } else {
        for (auto it = curve.rbegin(); it != curve.rend(); ++it)
          longer.push_back(*it + value * stride[axis]);
      }
    }
    curve.swap(longer);
  }
  return curve;
}

std::vector<int> allocate_snake_best_fit(const Topology& topology, const std::vector<bool>& busy,
                                         int count) {
  alloc::free_nodes(topology, busy, count, "snake-best-fit");
  const std::vector<int> curve = snake_curve(topology);
  std::vector<int> free_positions;  // positions along the curve of the free nodes
  for (int position = 0; position < static_cast<int>(curve.size()); ++position)
    if (busy.empty() || !busy[curve[position]]) free_positions.push_back(position);

  // Runs of consecutive free positions: the smallest that fits, earliest on ties.
  int best_first = -1, best_length = 0;
  for (std::size_t first = 0; first < free_positions.size();) {
    std::size_t end = first + 1;
    while (end < free_positions.size() && free_positions[end] == free_positions[end - 1] + 1) ++end;
    const int length = static_cast<int>(end - first);
    if (length >= count && (best_first < 0 || length < best_length)) {
      best_first = static_cast<int>(first);
      best_length = length;
    }
    first = end;
  }
  if (best_first < 0) {  // no run fits: the window of free nodes with the least span
    int best_span = 0;
    for (int first = 0; first + count <= static_cast<int>(free_positions.size()); ++first) {
      const int span = free_positions[first + count - 1] - free_positions[first];
      if (best_first < 0 || span < best_span) {
        best_first = first;
        best_span = span;
      }
    }
  }
  std::vector<int> allocation(count);
  for (int k = 0; k < count; ++k) allocation[k] = curve[free_positions[best_first + k]];
  return allocation;
}

}  // namespace tofa
