// Mapping in supervised child processes. Strategies run on users' graphs and
// call third-party code (Scotch); inside slurmctld a crash, a runaway loop or
// a huge allocation there would take the controller down. A worker process
// (tools/tofa-map-worker) limits its own address space before it reads a job
// and its CPU time before each job; the parent also enforces a wall-clock
// deadline and kills it. Workers are kept between jobs (Scotch's targets stay
// cached in them); one that fails is replaced by a new one.
#pragma once

#include <string>

#include "map/mapper.hpp"
#include "service/map_job_codec.hpp"

namespace tofa::service {

struct MapWorkerLimits {
  std::string program;         ///< path of tofa-map-worker
  long long memory_mb = 4096;  ///< RLIMIT_AS of the worker
  double seconds = 10;         ///< CPU time (RLIMIT_CPU) and wall clock per job
};

/// The placement `strategy` computes for `request`, computed in a worker
/// process. Throws Error with the strategy's own message, or MapWorkerFailure:
/// "mapping worker crashed (signal 11, Segmentation fault)", "... exceeded its
/// time limit of S s", "... ran out of memory (limit N MB)", a spawn failure.
/// Thread-safe; at most kMaxIdleWorkers stay alive between calls.
/// `own_links` goes over request.fault_cost.link_extra (PlacementInput::
/// link_extra_patch); a worker that kept that table from its last job is
/// not sent it again.
Placement map_in_worker(const MappingRequest& request, const std::string& strategy,
                        const MapWorkerLimits& limits, const LinkCostPatch& own_links = {});

/// Starts one idle worker of `limits` now, so that the first placement does
/// not wait for a process to start (about 20 ms inside a busy slurmctld).
/// Returns false with *why set when it cannot be started.
bool start_idle_map_worker(const MapWorkerLimits& limits, std::string* why);

/// Ends the idle workers (the service calls it when it stops).
void stop_idle_map_workers();

/// The worker's side: answers jobs from `in_fd` on `out_fd` until end of
/// input; `cpu_seconds` per job. Returns the process exit code.
int serve_map_jobs(int in_fd, int out_fd, double cpu_seconds);

}  // namespace tofa::service
