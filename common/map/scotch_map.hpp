// Shared steps of the Scotch-based strategies (tofa, tofa-compact).
#pragma once

#include <memory>
#include <vector>

#include "../tofa/mapper.hpp"
#include "scotch_target.hpp"

namespace tofa {

/// The first `needed` consecutive candidates (in candidate order) whose
/// outage is 0, or an empty vector.
std::vector<int> first_fault_free_run(const MappingRequest& request,
                                      const std::vector<int>& candidates, int needed);

/// Maps the request's graph onto `target` with Scotch (seeded by
/// request.seed), then moves tasks off nodes above `slots`. Takes the lock
/// that guards Scotch, held by the caller while the target was made.
Placement scotch_map_onto(const MappingRequest& request,
                          const std::shared_ptr<const scotch::Target>& target, int slots,
                          scotch::Lock& held);

/// Outage of every topology node (0 where the request has none).
std::vector<double> outage_per_node(const MappingRequest& request);

}  // namespace tofa
