// Scotch's own gmap as a quality anchor for benchmarks (bench/bench_quality):
// not a strategy, and not in the registry.
#pragma once

#include "map/mapper.hpp"

namespace tofa {

/// What `gmap` with no options gives for the job: SCOTCH_graphMap with
/// Scotch's default strategy of the communication graph (bytes as integer
/// edge weights) onto the candidate nodes as a sub-architecture of the
/// topology (scotch::topology_target: hop distances), blind to outage
/// probabilities. Scotch balances the tasks over every candidate, so a job
/// smaller than the candidates' slots is spread over up to
/// min(tasks, candidates) nodes; a node left above its slots (Scotch
/// balances only approximately) gives tasks to the nearest free candidate
/// (repair_capacity, as the tofa strategy does). Deterministic for
/// request.seed. Throws Error when the tasks do not fit or Scotch fails.
Placement scotch_gmap_anchor(const MappingRequest& request);

/// Scotch's gmap told the slots per node: the job packed onto
/// needed = ceil(tasks / slots) candidates, the most compact such set
/// (packed_anchor_nodes), then SCOTCH_graphMap with Scotch's default
/// strategy onto them as a sub-architecture of the topology (hop
/// distances), so Scotch balances about `slots` tasks per node instead of
/// spreading the job over every candidate; a node left above its slots
/// gives tasks to the nearest free node of the set. Blind to outage
/// probabilities, as scotch_gmap_anchor. With one slot per node it packs
/// the job onto `tasks` nodes. Deterministic for request.seed. Throws
/// Error when the tasks do not fit or Scotch fails.
Placement scotch_packed_anchor(const MappingRequest& request);

/// The `needed` candidates scotch_packed_anchor maps onto: for every
/// candidate, it and the needed - 1 candidates nearest to it in hops (ties:
/// candidate order); of those sets, the one with the lowest sum of hops
/// between its nodes (ties: the earlier candidate), in candidate order.
/// O(candidates x (candidates log candidates + needed^2)). Throws Error
/// unless 1 <= needed <= candidates.
std::vector<int> packed_anchor_nodes(const Topology& topology, const std::vector<int>& candidates,
                                     int needed);

}  // namespace tofa
