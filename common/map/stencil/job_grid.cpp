#include "job_grid.hpp"

#include <algorithm>

namespace tofa {
namespace stencil {
namespace {

/// Axes by decreasing length, lower axis first on ties.
Triple axes_by_length(const Triple& lengths) {
  Triple axes{0, 1, 2};
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int a, int b) { return lengths[a] > lengths[b]; });
  return axes;
}

}  // namespace

JobGrid::JobGrid(const Triple& shape) : JobGrid(shape, Triple{0, 1, 2}) {}

JobGrid::JobGrid(const Triple& shape, const Triple& axis_of)
    : shape_(shape), axis_of_(axis_of),
      dims_{shape[axis_of[0]], shape[axis_of[1]], shape[axis_of[2]]} {}

JobGrid rotate_to_fit(const Triple& shape, const Triple& box_extent) {
  bool orders_differ = false;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      if (shape[a] > shape[b] && box_extent[a] < box_extent[b]) orders_differ = true;
  if (!orders_differ) return JobGrid(shape);
  const Triple job_axes = axes_by_length(shape);
  const Triple box_axes = axes_by_length(box_extent);
  Triple axis_of{0, 1, 2};
  for (int k = 0; k < 3; ++k) axis_of[box_axes[k]] = job_axes[k];
  return JobGrid(shape, axis_of);
}

}  // namespace stencil
}  // namespace tofa
