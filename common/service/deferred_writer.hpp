// Runs a save callback on its own thread soon after each request, coalescing
// requests that arrive while it works. A request takes no lock: the thread
// runs below the scheduler (lower_this_thread) and must never hold one that
// slurmctld's scheduling pass waits for.
// Placements are recorded from inside slurmctld's scheduler (select/tofa
// holds Slurm's locks), where waiting for an fsync would stall scheduling;
// the callback writes and fsyncs instead. A caller that must not answer
// before its change is on disk (a network PLACE) waits for its ticket:
// concurrent waiters share one write.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace tofa::service {

class DeferredWriter {
 public:
  /// `save` returns false when it failed (and has reported why). Throws
  /// when the thread's wake-up descriptor cannot be made.
  explicit DeferredWriter(std::function<bool()> save);
  /// Runs a pending save, then joins.
  ~DeferredWriter();
  DeferredWriter(const DeferredWriter&) = delete;
  DeferredWriter& operator=(const DeferredWriter&) = delete;

  /// Asks for one more run of the callback; returns at once with a ticket
  /// for wait().
  std::uint64_t request();
  /// Blocks until a run that started after request() returned `ticket` has
  /// finished; true when that run (or a later one) succeeded.
  bool wait(std::uint64_t ticket);

 private:
  void run();
  void wake();

  std::function<bool()> save_;
  int wake_;  ///< eventfd: written by request(), read by the thread
  std::atomic<std::uint64_t> requested_{0};  ///< tickets handed out
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable saved_;
  std::uint64_t finished_ = 0;   ///< tickets covered by a finished run
  std::uint64_t succeeded_ = 0;  ///< tickets covered by a successful run
  std::thread thread_;
};

}  // namespace tofa::service
