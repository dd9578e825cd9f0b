// Orders from a corner of the job grid or of the allocation's bounding box
// (seed Bunde, section 3, "Corner-based algorithms").
#pragma once

#include <vector>

#include "allocation.hpp"
#include "job_grid.hpp"

namespace tofa {
namespace stencil {

/// Corner c is the box corner that is high on axis a when bit a of c is set.
/// ALLCORNERS visits them in this order: (0,0,0), (0,ymax,0), (xmax,ymax,0),
/// (xmax,0,0), then the same four at zmax.
constexpr int kCornerTour[8] = {0b000, 0b010, 0b011, 0b001, 0b100, 0b110, 0b111, 0b101};

/// Task ids by increasing L1 distance from `corner` of the job grid, ties by
/// the offset from the corner along z, then y, then x.
std::vector<int> tasks_from_corner(const JobGrid& job, int corner);

/// Rank ids by increasing L1 distance from `corner` of the allocation's
/// bounding box, ties by offset along z, then y, then x, then rank id.
std::vector<int> ranks_from_corner(const Allocation& allocation, int corner);

}  // namespace stencil
}  // namespace tofa
