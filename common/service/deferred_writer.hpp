// Runs a save callback on its own thread soon after each request, coalescing
// requests that arrive while it works. Placements are recorded from inside
// slurmctld's scheduler (select/tofa holds Slurm's locks), where waiting for
// an fsync would stall scheduling; the callback writes and fsyncs instead.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace tofa::service {

class DeferredWriter {
 public:
  explicit DeferredWriter(std::function<void()> save);
  /// Runs a pending save, then joins.
  ~DeferredWriter();
  DeferredWriter(const DeferredWriter&) = delete;
  DeferredWriter& operator=(const DeferredWriter&) = delete;

  /// Asks for one more run of the callback; returns at once.
  void request();

 private:
  void run();

  std::function<void()> save_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool pending_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace tofa::service
