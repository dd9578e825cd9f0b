// Shared steps of the Scotch-based strategies (tofa, tofa-compact, tofa-packed).
#pragma once

#include <vector>

#include "map/mapper.hpp"

namespace tofa {

/// Chooses the nodes of the fault-weighted target when no run of `needed`
/// consecutive fault-free candidates exists.
using FallbackNodes = std::vector<int> (*)(const MappingRequest& request,
                                           const std::vector<int>& candidates, int needed);

/// Listing 1.1 of the TOFA seed onto `nodes` (at least one, holding the job
/// at the request's slots per node): Scotch onto the topology's sub-target
/// of those nodes, weighted by Equation 1 when a node may fail, then tasks
/// moved off nodes above their slots. Deterministic for request.seed.
Placement map_onto_nodes(const MappingRequest& request, const std::vector<int>& nodes);

/// Listing 1.1 of the TOFA seed with a choice of fallback: Scotch onto the
/// first run of ceil(tasks/slots) consecutive fault-free candidates when there
/// is one (SCOTCH_archSub of the topology), else onto the fault-weighted
/// target (Equation 1) restricted to fallback(...). Then tasks are moved off
/// nodes above their slots. Deterministic for request.seed.
Placement map_fault_free_run_or(const MappingRequest& request, FallbackNodes fallback);

}  // namespace tofa
