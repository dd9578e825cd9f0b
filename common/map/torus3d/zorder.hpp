// The order in which torus3d's node ranks put a job's nodes: a Z-order
// (Morton) curve over coordinates taken relative to a wrap-aware start on
// each axis (Slurm 26.05 topology_torus3d.c:topology_p_get_rank).
#pragma once

#include <cstdint>
#include <vector>

#include "shapes.hpp"

namespace tofa {
namespace torus3d {

/// The covering arc topology_torus3d.c:_min_wrap_span picks for the used
/// coordinates of one axis (`used[c]` non-zero; at least one is): the linear
/// span first..last when Slurm's test says no internal gap can beat the
/// wrap-around gap, else the arc that leaves out the largest gap. The test
/// is Slurm's, 2 * (last - first) < length + used count, which keeps the
/// linear span in a few cases where a shorter wrapping arc exists (e.g.
/// {0, 1, 3} on an axis of 4: start 0, span 4, not start 3, span 3).
struct Arc {
  int start = 0;
  int span = 1;
};
Arc min_wrap_span(const std::vector<char>& used);

/// Bits of interleaved Morton code per axis for the given spans, at most 16
/// in all; when more are needed the axis with the most bits loses one (x
/// before y before z on ties) until they fit, and `shift` tells how many
/// low bits of that axis's coordinate are dropped.
struct MortonBits {
  Triple bits{0, 0, 0};
  Triple shift{0, 0, 0};
};
MortonBits morton_bits(const Triple& spans);

/// Interleaves the low bits[a] bits of c[a]: bit i of x, then of y, then
/// of z, for i = 0, 1, ..., skipping an axis whose bits are used up.
std::uint32_t morton_code(const Triple& c, const Triple& bits);

/// Each node's rank: its Morton code relative to the start of each axis's
/// arc (absolute coordinates, full spans, when `nodes` is the whole torus).
/// `nodes` are distinct ids of the grid.
std::vector<std::uint32_t> node_ranks(const Grid& grid, const std::vector<int>& nodes);

/// `nodes` sorted by rank, ties by node id (slurm_step_layout.c orders a
/// step's nodes this way before handing out tasks).
std::vector<int> zorder(const Grid& grid, std::vector<int> nodes);

}  // namespace torus3d
}  // namespace tofa
