// Linear orders of tasks and ranks: the core of BASELINE, COLMAJOR, ROWMAJOR
// and ORDERED (seed Bunde, section 3, "Linear algorithms").
#pragma once

#include <array>
#include <vector>

#include "allocation.hpp"
#include "job_grid.hpp"

namespace tofa {
namespace stencil {

/// nesting[0] is the fastest-moving axis, nesting[2] the slowest;
/// reversed[a] walks axis a from its high end (a "flip").
struct LinearOrder {
  Triple nesting{0, 1, 2};
  std::array<bool, 3> reversed{false, false, false};
};

/// x fastest, then y, then z (the seed's row-major order).
constexpr Triple kRowMajor{0, 1, 2};
/// y fastest, then x, then z (the seed's column-major order).
constexpr Triple kColumnMajor{1, 0, 2};

/// Task ids in the order `nesting` visits the job grid's points.
std::vector<int> tasks_in_order(const JobGrid& job, const Triple& nesting);

/// Rank ids sorted by their unwrapped coordinates under `order`; ranks on
/// the same node keep their allocation order. O(ranks log ranks).
std::vector<int> ranks_in_order(const Allocation& allocation, const LinearOrder& order);

}  // namespace stencil
}  // namespace tofa
