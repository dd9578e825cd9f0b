// Moves tasks off nodes that hold more than their slots (after Scotch, which
// balances load only approximately).
#pragma once

#include <vector>

#include "map/mapper.hpp"

namespace tofa {

/// While a node holds more than `slots` tasks (a node not in `nodes` has
/// none), its task with the fewest bytes to the other tasks still
/// on it (then the smallest total volume, then the highest id) leaves. Each
/// leaving task, in node id then leaving order, goes to the free node of
/// `nodes` nearest to its old one: fewest hops, then fault-free, then lowest
/// id. Needs slots * |nodes| >= tasks.
void repair_capacity(const MappingRequest& request, const std::vector<int>& nodes, int slots,
                     Placement& placement);
/// The same with a slot count per node: node nodes[i] may hold slots[i] tasks.
void repair_capacity(const MappingRequest& request, const std::vector<int>& nodes,
                     const std::vector<int>& slots, Placement& placement);

}  // namespace tofa
