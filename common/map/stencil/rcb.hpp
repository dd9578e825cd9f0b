// Recursive coordinate bisection of both the job and its ranks
// (seed Bunde, section 3, "Recursive Coordinate Bisection").
#pragma once

#include <vector>

#include "problem.hpp"

namespace tofa {
namespace stencil {

/// rank_of_task by RCB. Each step cuts the current block of the job grid
/// across its longest axis into floor(L/2) and ceil(L/2) layers, and the
/// current ranks at the same count along the same axis: the ranks with the
/// lowest coordinate on that axis go with the lower half. Ties:
///  - between equally long job axes, the axis along which the ranks spread
///    most wins, then the lower axis;
///  - between ranks with the same coordinate on the cut axis, the next axes
///    (cyclically) decide, then the rank id.
/// O(tasks log tasks), deterministic.
std::vector<int> rcb_assignment(const StencilProblem& problem);

}  // namespace stencil
}  // namespace tofa
