// The block of tasks GROUPING puts on one node (Barrett et al.'s 2x2x4 on
// 16-core nodes, as described in seed Bunde, section 2).
#pragma once

#include "job_shape.hpp"

namespace tofa {
namespace stencil {

/// The a x b x c block with a | X, b | Y, c | Z and a*b*c <= slots that has
/// the most tasks, then the fewest cut stencil edges per task (smallest
/// ab + bc + ca), then the longest z side, then the longest y side. For 16
/// slots and a job with even sides divisible by 4 in z this gives 2x2x4.
Triple group_block(const Triple& shape, int slots);

}  // namespace stencil
}  // namespace tofa
