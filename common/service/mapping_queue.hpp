// Mappings deferred out of slurmctld's scheduling pass (issue 38): the
// scheduler records a job's node choice at once, and the job's strategy
// orders its tasks on those nodes here, on threads of their own. Users take
// turns: each thread takes the oldest work of the next user in line, so one
// user's many jobs delay another user's by at most one mapping per thread.
// The threads run at a lower priority than the rest of the process, and
// work starts only once the pass that queued it has moved on: on a
// controller with few cores a mapping thread that starts at once takes
// turns on the scheduler's core while the pass still holds slurmctld's
// locks (issue 38, a sched_switch trace of the contended stream).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace tofa::service {

using MappingClock = std::chrono::steady_clock;

/// When queued work may start: once no work has been queued for `quiet`
/// (the scheduling pass that queued it has ended: it queues one mapping per
/// started job in quick succession), and in any case `max_hold` after it
/// was queued (a pass that never pauses).
struct MappingSettle {
  std::chrono::microseconds quiet{3000};
  std::chrono::microseconds max_hold{25000};
};
MappingClock::time_point mapping_start_time(MappingClock::time_point last_queued,
                                            MappingClock::time_point queued,
                                            const MappingSettle& settle);

/// The share of auto's budget for a mapping that starts while `waiting`
/// more are queued for `threads` threads: threads / (threads + waiting).
/// Jobs starting faster than full budgets allow (a reservation beginning,
/// the harness replaying weeks of submissions) then split the threads'
/// time, each waiting about one budget in the queue, instead of queueing
/// behind full budgets until their steps' wait bound gives them the node
/// choice's order.
double backlog_budget_share(std::size_t waiting, int threads);

class MappingQueue {
 public:
  explicit MappingQueue(int threads, MappingSettle settle = {});
  /// Drops the work not started, waits for the running work, joins.
  ~MappingQueue();
  MappingQueue(const MappingQueue&) = delete;
  MappingQueue& operator=(const MappingQueue&) = delete;

  /// Queues `work` for `uid`; it runs on one of the threads. Work must not
  /// throw (an escaping exception is dropped).
  void push(uid_t uid, std::function<void()> work);
  /// Work queued and not started yet.
  std::size_t waiting() const;
  /// Returns once no work is queued or running (tools and tests: the
  /// harness reads the final placements of its stream).
  void wait_idle();

 private:
  struct Work {
    MappingClock::time_point queued;
    std::function<void()> run;
  };
  void run();
  /// Waits (on `lock`) until the next work may start; false when stopping.
  bool wait_for_turn(std::unique_lock<std::mutex>& lock);
  const MappingSettle settle_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<uid_t, std::deque<Work>> work_;
  MappingClock::time_point last_queued_{};
  std::deque<uid_t> turns_;  ///< users with work, in the order they are served
  std::size_t waiting_ = 0;
  std::size_t running_ = 0;
  std::condition_variable idle_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace tofa::service
