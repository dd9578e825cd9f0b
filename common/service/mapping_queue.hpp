// Mappings deferred out of slurmctld's scheduling pass (issue 38): the
// scheduler records a job's node choice at once, and the job's strategy
// orders its tasks on those nodes here, on threads of their own. Users take
// turns: each thread takes the oldest work of the next user in line, so one
// user's many jobs delay another user's by at most one mapping per thread.
// The threads run at a lower priority than the rest of the process.
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace tofa::service {

class MappingQueue {
 public:
  explicit MappingQueue(int threads);
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
  void run();
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<uid_t, std::deque<std::function<void()>>> work_;
  std::deque<uid_t> turns_;  ///< users with work, in the order they are served
  std::size_t waiting_ = 0;
  std::size_t running_ = 0;
  std::condition_variable idle_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace tofa::service
