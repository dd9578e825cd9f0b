// Scotch's own gmap as a quality anchor for benchmarks (bench/bench_quality):
// not a strategy, and not in the registry.
#pragma once

#include "../../tofa/mapper.hpp"

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

}  // namespace tofa
