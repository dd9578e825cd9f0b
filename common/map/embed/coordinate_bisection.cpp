#include "coordinate_bisection.hpp"

#include <algorithm>
#include <numeric>

#include "base/error.hpp"

namespace tofa {
namespace embed {
namespace {

/// Per node of `nodes` and dimension, its coordinate shifted so that the
/// largest run of unused coordinates of a wrapping dimension ends the range.
std::vector<std::vector<int>> unwrapped_coords(const Topology& topology,
                                               const std::vector<int>& nodes) {
  const int dimensions = static_cast<int>(topology.dims().size());
  std::vector<std::vector<int>> coords;
  coords.reserve(nodes.size());
  for (int node : nodes) coords.push_back(topology.coords(node));
  for (int d = 0; d < dimensions; ++d) {
    const int size = topology.dims()[d];
    if (!topology.wrap()[d] || coords.empty()) continue;
    std::vector<char> used(size, 0);
    for (const auto& c : coords) used[c[d]] = 1;
    // The coordinate after the longest cyclic run of unused ones starts the range.
    std::vector<int> used_at;
    for (int x = 0; x < size; ++x)
      if (used[x]) used_at.push_back(x);
    int best_start = used_at.front(), best_gap = 0;
    for (std::size_t i = 0; i < used_at.size(); ++i) {
      const int previous = used_at[(i + used_at.size() - 1) % used_at.size()];
      const int gap = (used_at[i] - previous - 1 + size) % size;
      if (gap > best_gap) best_gap = gap, best_start = used_at[i];
    }
    for (auto& c : coords) c[d] = (c[d] - best_start + size) % size;
  }
  return coords;
}

struct Bisection {
  const std::vector<double>& task_coords;
  int axes;
  const std::vector<std::vector<int>>& node_coords;  // per index into `nodes`
  const std::vector<int>& nodes;
  std::vector<int> axis_of_dimension;  // -1: no embedding axis (zero extent)
  int slots;
  std::vector<int> placement;

  int extent(const std::vector<int>& node_indices, std::size_t begin, std::size_t end, int d) const {
    int low = node_coords[node_indices[begin]][d], high = low;
    for (std::size_t i = begin; i < end; ++i) {
      low = std::min(low, node_coords[node_indices[i]][d]);
      high = std::max(high, node_coords[node_indices[i]][d]);
    }
    return high - low;
  }

  void cut(std::vector<int>& node_indices, std::size_t node_begin, std::size_t node_end,
           std::vector<int>& tasks, std::size_t task_begin, std::size_t task_end) {
    if (task_begin == task_end) return;
    const std::size_t node_count = node_end - node_begin;
    if (node_count == 1) {
      for (std::size_t t = task_begin; t < task_end; ++t)
        placement[tasks[t]] = nodes[node_indices[node_begin]];
      return;
    }
    int dimension = -1, widest = -1;
    for (int d = 0; d < static_cast<int>(axis_of_dimension.size()); ++d) {
      if (axis_of_dimension[d] < 0) continue;
      const int e = extent(node_indices, node_begin, node_end, d);
      if (e > widest) widest = e, dimension = d;
    }
    const std::size_t node_half = node_count / 2;
    const auto node_first = node_indices.begin() + node_begin;
    if (dimension >= 0)
      std::nth_element(node_first, node_first + node_half, node_indices.begin() + node_end,
                       [&](int a, int b) {
                         const auto& ca = node_coords[a];
                         const auto& cb = node_coords[b];
                         if (ca[dimension] != cb[dimension]) return ca[dimension] < cb[dimension];
                         return a < b;
                       });
    const long long task_count = static_cast<long long>(task_end - task_begin);
    const long long low_room = static_cast<long long>(node_half) * slots;
    const long long high_room = static_cast<long long>(node_count - node_half) * slots;
    long long low_tasks = (task_count * static_cast<long long>(node_half) + node_count / 2) /
                          static_cast<long long>(node_count);
    low_tasks = std::clamp(low_tasks, task_count - high_room, low_room);
    if (dimension >= 0) {
      const int axis = axis_of_dimension[dimension];
      const auto task_first = tasks.begin() + task_begin;
      std::nth_element(task_first, task_first + low_tasks, tasks.begin() + task_end,
                       [&](int a, int b) {
                         const double xa = task_coords[static_cast<std::size_t>(a) * axes + axis];
                         const double xb = task_coords[static_cast<std::size_t>(b) * axes + axis];
                         if (xa != xb) return xa < xb;
                         return a < b;
                       });
    }
    const std::size_t task_middle = task_begin + static_cast<std::size_t>(low_tasks);
    cut(node_indices, node_begin, node_begin + node_half, tasks, task_begin, task_middle);
    cut(node_indices, node_begin + node_half, node_end, tasks, task_middle, task_end);
  }
};

}  // namespace

std::vector<int> coordinate_bisection(const std::vector<double>& coords, int axes,
                                      const Topology& topology, const std::vector<int>& nodes,
                                      int slots) {
  const std::size_t tasks = axes > 0 ? coords.size() / axes : 0;
  if (axes < 1 || coords.size() != tasks * axes)
    throw Error("coordinate_bisection: coordinates do not match the axes");
  if (slots < 1 || static_cast<long long>(tasks) > static_cast<long long>(slots) * static_cast<long long>(nodes.size()))
    throw Error("coordinate_bisection: " + std::to_string(tasks) + " tasks do not fit on " +
                std::to_string(nodes.size()) + " nodes of " + std::to_string(slots) + " slots");
  const std::vector<std::vector<int>> node_coords = unwrapped_coords(topology, nodes);
  const int dimensions = static_cast<int>(topology.dims().size());

  // Dimensions by decreasing extent over every node (lower first on ties).
  std::vector<int> node_indices(nodes.size());
  std::iota(node_indices.begin(), node_indices.end(), 0);
  std::vector<int> by_extent;
  std::vector<int> extent(dimensions, 0);
  Bisection bisection{coords, axes, node_coords, nodes, std::vector<int>(dimensions, -1), slots,
                      std::vector<int>(tasks, -1)};
  for (int d = 0; d < dimensions; ++d) {
    if (!nodes.empty()) extent[d] = bisection.extent(node_indices, 0, nodes.size(), d);
    if (extent[d] > 0) by_extent.push_back(d);
  }
  std::stable_sort(by_extent.begin(), by_extent.end(),
                   [&](int a, int b) { return extent[a] > extent[b]; });
  for (std::size_t i = 0; i < by_extent.size() && static_cast<int>(i) < axes; ++i)
    bisection.axis_of_dimension[by_extent[i]] = static_cast<int>(i);

  std::vector<int> task_order(tasks);
  std::iota(task_order.begin(), task_order.end(), 0);
  if (tasks > 0) bisection.cut(node_indices, 0, nodes.size(), task_order, 0, tasks);
  return std::move(bisection.placement);
}

}  // namespace embed
}  // namespace tofa
