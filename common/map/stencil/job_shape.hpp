// The X x Y x Z shape of a stencil job: given as the 'stencil' parameter or
// recognized in the communication graph.
#pragma once

#include <array>
#include <string>

#include "graph/graph.hpp"
#include "map/mapper.hpp"

namespace tofa {
namespace stencil {

/// Three integers, one per axis x, y, z.
using Triple = std::array<int, 3>;

/// Parses "4x8x4", "4x8" or "64" (missing trailing dimensions are 1).
/// Throws Error "<context>: expected XxYxZ with 1 to 3 positive integers, found 'TEXT'".
Triple parse_shape(const std::string& text, const std::string& context);

/// Recognizes a non-periodic nearest-neighbour stencil whose task ids are
/// x + X*(y + Y*z) (the numbering of tofa::stencil_graph): the graph must have
/// exactly the stencil's edges (weights are ignored). Axes of length 1 are put
/// last, so a 2D 8x8 stencil comes back as 8x8x1. Returns false when the graph
/// is not such a stencil. O(tasks + edges).
bool infer_shape(const CommGraph& graph, Triple* shape);

/// The job's shape: the 'stencil' parameter when set (its product must equal
/// the task count), else infer_shape. Throws Error prefixed with `strategy`.
Triple job_shape(const MappingRequest& request, const std::string& strategy);

}  // namespace stencil
}  // namespace tofa
