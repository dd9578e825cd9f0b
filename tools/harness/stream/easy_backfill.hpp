// FIFO scheduling with EASY backfilling (Lifka), simulated in simulated time.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "swf.hpp"

namespace tofa::harness {

/// `node_count` nodes of `slots_per_node` slots each.
struct Machine {
  int node_count = 0;
  int slots_per_node = 1;
  long long slots() const { return static_cast<long long>(node_count) * slots_per_node; }
};

/// Chooses the nodes of a job that starts now: the node index of each task,
/// at most free_slots[n] tasks on node n. nullopt: the job cannot be placed
/// now although enough slots are free in total (a contiguity-requiring
/// allocator); the scheduler then treats it as not fitting.
using Allocate = std::function<std::optional<std::vector<int>>(
    const StreamJob& job, const std::vector<int>& free_slots)>;

/// Called after each job started or rejected: (done, total).
using ProgressCallback = std::function<void(long done, long total)>;

struct ScheduledJob;
/// Called when a job starts, with its nodes (end = start + runtime is known).
using StartCallback = std::function<void(const ScheduledJob& job)>;

struct EasyOptions {
  bool backfill = true;  ///< false: plain FIFO
  /// Bounded slowdown max(1, (wait + runtime) / max(runtime, threshold)).
  double slowdown_threshold = 10;
  ProgressCallback progress;
  StartCallback on_start;
  /// false: StreamResult::jobs come without task_nodes (on_start still sees
  /// them), for long streams of large jobs where they would fill memory.
  bool keep_task_nodes = true;
};

struct ScheduledJob {
  StreamJob job;
  double start = 0;
  double end = 0;  ///< start + runtime
  double wait = 0;  ///< start - submit
  std::vector<int> task_nodes;  ///< node of each task, as the allocator returned it
  bool backfilled = false;      ///< started ahead of an earlier waiting job
  /// The first reservation (shadow time) the job got as head of the queue;
  /// -1 when it started as soon as it became head.
  double reservation = -1;
};

struct RejectedJob {
  StreamJob job;
  std::string reason;
};

struct StreamTotals {
  double makespan = 0;      ///< last end - first submit
  double utilisation = 0;   ///< busy slot-seconds / (slots x makespan)
  double mean_wait = 0;
  double p50_wait = 0;      ///< nearest-rank percentiles
  double p95_wait = 0;
  double mean_bounded_slowdown = 0;
};

struct StreamResult {
  std::vector<ScheduledJob> jobs;  ///< in start order (ties: order of starting)
  std::vector<RejectedJob> rejected;
  StreamTotals totals;
};

/// Runs `jobs` (any order; taken by submit time, ties in the given order)
/// through a FIFO queue with EASY backfilling. Runs each job for its
/// runtime; the scheduler only knows requested_time: a running job is
/// expected to end at max(now, start + requested_time). When the queue head
/// cannot start, it gets a reservation at the earliest expected end by which
/// enough slots will be free (the shadow time); a later job then starts now
/// if it fits now and either ends by its requested_time before the shadow
/// time or uses no more than the slots the head will not need then.
/// Slots are counted per machine; which nodes a job gets is `allocate`'s
/// choice (checked: one node per task, never over a node's free slots).
/// A job of more tasks than the machine's slots, and a head job `allocate`
/// cannot place on an idle machine, is rejected with the reason.
/// Throws tofa::Error on a bad machine, a job with runtime <= 0 or
/// tasks <= 0, or an allocation that breaks the rules above.
/// Cost: O(jobs log jobs) for the events, plus per scheduling pass the scan
/// of the waiting queue and of the running jobs (EASY's own cost), plus the
/// allocator's calls.
StreamResult simulate_easy(const Machine& machine, const std::vector<StreamJob>& jobs,
                           const Allocate& allocate, const EasyOptions& options = {});

}  // namespace tofa::harness
