// The service's own work (mappings, state saves) runs inside slurmctld beside
// its scheduler, which holds the job and node locks while tofa chooses nodes:
// that thread must not wait for a core one of ours holds. Measured with
// bench/bench_scheduler_path (4096 tasks on 512 nodes, 2 cores): with nice
// +10 alone, a woken mapping thread or the state writer took the
// scheduler's core until the next tick (2-5 ms) in most jobs.
#pragma once

namespace tofa::service {

/// For the mapping threads: nice + 10 and SCHED_BATCH, which never preempts
/// a thread on waking (a mapping takes up to seconds of CPU, so it keeps a
/// fair share: SCHED_IDLE starved them past MapTimeLimit under a saturated
/// harness stream).
void lower_this_thread();

/// For the state writer: SCHED_IDLE, which runs only when no other thread
/// wants the core. It must hold no lock the scheduler takes (DeferredWriter
/// takes none on request()); its saves are deferred anyway.
void idle_this_thread();

}  // namespace tofa::service
