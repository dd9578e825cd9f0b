// Mapping in a supervised child process. Strategies run on users' graphs and
// call third-party code (Scotch); inside slurmctld a crash, a runaway loop or
// a huge allocation there would take the controller down. The worker process
// (tools/tofa-map-worker) limits its own address space and CPU time before it
// reads the job; the parent also enforces a wall-clock deadline and kills it.
#pragma once

#include <string>

#include "tofa/mapper.hpp"

namespace tofa::service {

struct MapWorkerLimits {
  std::string program;        ///< path of tofa-map-worker
  long long memory_mb = 4096; ///< RLIMIT_AS of the worker
  double seconds = 30;        ///< CPU time (RLIMIT_CPU) and wall-clock deadline
};

/// The placement `strategy` computes for `request`, computed in a new worker
/// process. Throws Error naming what went wrong: the strategy's own error,
/// "mapping worker crashed (signal 11, Segmentation fault)", "... exceeded
/// its time limit of S s", "... ran out of memory (limit N MB)", or a spawn
/// failure. Never lets the child outlive the call.
Placement map_in_worker(const MappingRequest& request, const std::string& strategy,
                        const MapWorkerLimits& limits);

/// The worker's side: reads one job from `in_fd`, writes the result to
/// `out_fd`. Returns the process exit code.
int serve_map_job(int in_fd, int out_fd);

}  // namespace tofa::service
