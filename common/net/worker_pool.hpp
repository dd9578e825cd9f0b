// A fixed set of threads running queued jobs in order of submission.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tofa::net {

class WorkerPool {
 public:
  /// Starts `threads` (at least 1) threads. Throws std::system_error.
  explicit WorkerPool(int threads);
  ~WorkerPool() { stop(); }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Queues `job`; after stop() it is dropped. An exception from a job is
  /// swallowed (jobs report their own failures).
  void submit(std::function<void()> job);

  /// Drops the queued jobs, waits for the running ones and joins. Idempotent.
  void stop();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::mutex stop_mutex_;
};

}  // namespace tofa::net
