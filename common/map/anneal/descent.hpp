// The end of every annealing stage: exhaustive local descent at zero
// temperature. A random quench finds one specific swap of two neighbouring
// tasks only with probability ~1e-5 per proposal on an 8^3 problem; trying
// every local change finds it in one pass.
#pragma once

#include <cstdint>
#include <vector>

#include "initial_map.hpp"
#include "placement_state.hpp"
#include "site_neighbourhood.hpp"

namespace tofa {
namespace anneal {

/// Every task of `movable` (all placed) tries every site at or around its
/// own site and the sites of its (up to 12 heaviest) placed partners: a move there (within the load
/// bounds, the lower one when `keep_lowest`), or a swap with each movable
/// task there. The best change at a site is taken when it lowers F. Passes
/// repeat until one changes nothing or `passes` are done. Returns the
/// number of changes evaluated.
/// No task starts its turn after `deadline`.
std::uint64_t local_descent(PlacementState& state, const SiteNeighbourhood& around,
                            const std::vector<int>& movable, bool keep_lowest, int passes,
                            Deadline deadline = Deadline::max());

}  // namespace anneal
}  // namespace tofa
