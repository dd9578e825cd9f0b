// The job's tasks as points of an X x Y x Z grid, optionally rotated
// (seed Bunde, section 3, "Rotations").
#pragma once

#include "job_shape.hpp"

namespace tofa {
namespace stencil {

/// Task t of a job of shape S sits at (x, y, z) with t = x + S[0]*(y + S[1]*z).
/// A grid may show the job rotated: its axis a is the job's axis axis_of[a],
/// so dims[a] == shape[axis_of[a]]. Strategies work in grid coordinates.
class JobGrid {
 public:
  /// The job as it is (no rotation).
  explicit JobGrid(const Triple& shape);
  /// The job with its axes permuted: grid axis a shows job axis axis_of[a].
  JobGrid(const Triple& shape, const Triple& axis_of);

  const Triple& dims() const { return dims_; }
  const Triple& shape() const { return shape_; }
  const Triple& axis_of() const { return axis_of_; }
  bool is_rotated() const { return axis_of_ != Triple{0, 1, 2}; }
  int task_count() const { return dims_[0] * dims_[1] * dims_[2]; }

  /// Grid coordinates -> task id.
  int task_at(const Triple& grid) const {
    int job[3];
    for (int a = 0; a < 3; ++a) job[axis_of_[a]] = grid[a];
    return job[0] + shape_[0] * (job[1] + shape_[1] * job[2]);
  }
  /// Task id -> grid coordinates.
  Triple grid_of(int task) const {
    const int job[3] = {task % shape_[0], (task / shape_[0]) % shape_[1],
                        task / (shape_[0] * shape_[1])};
    return {job[axis_of_[0]], job[axis_of_[1]], job[axis_of_[2]]};
  }

 private:
  Triple shape_;
  Triple axis_of_;
  Triple dims_;
};

/// The rotation step: when the order of the job's dimension lengths differs
/// from the order of the allocation's bounding-box extents (some axis is
/// strictly longer in the job but strictly shorter in the box), the job is
/// rotated so that its k-th longest axis lies along the box's k-th longest
/// (stable on ties, lower axis first). Otherwise the job is left as it is.
JobGrid rotate_to_fit(const Triple& shape, const Triple& box_extent);

}  // namespace stencil
}  // namespace tofa
