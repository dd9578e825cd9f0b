#include "service/mapping_queue.hpp"

#include "service/background_priority.hpp"

#include <algorithm>

namespace tofa::service {

double backlog_budget_share(std::size_t waiting, int threads) {
  return threads / (threads + static_cast<double>(waiting));
}

MappingClock::time_point mapping_start_time(MappingClock::time_point last_queued,
                                            MappingClock::time_point queued,
                                            const MappingSettle& settle) {
  return std::min(last_queued + settle.quiet, queued + settle.max_hold);
}

MappingQueue::MappingQueue(int threads, MappingSettle settle) : settle_(settle) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

MappingQueue::~MappingQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void MappingQueue::push(uid_t uid, std::function<void()> work) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::deque<Work>& queue = work_[uid];
    if (queue.empty()) turns_.push_back(uid);
    last_queued_ = MappingClock::now();
    queue.push_back({last_queued_, std::move(work)});
    ++waiting_;
  }
  wake_.notify_one();
}

std::size_t MappingQueue::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_;
}

void MappingQueue::wait_idle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return waiting_ == 0 && running_ == 0; });
}

bool MappingQueue::wait_for_turn(std::unique_lock<std::mutex>& lock) {
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !turns_.empty(); });
    if (stopping_) return false;
    const MappingClock::time_point start =
        mapping_start_time(last_queued_, work_[turns_.front()].front().queued, settle_);
    if (MappingClock::now() >= start) return true;
    wake_.wait_until(lock, start);
  }
}

void MappingQueue::run() {
  lower_this_thread();
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!wait_for_turn(lock)) return;
      const uid_t uid = turns_.front();
      turns_.pop_front();
      std::deque<Work>& queue = work_[uid];
      work = std::move(queue.front().run);
      queue.pop_front();
      --waiting_;
      ++running_;
      if (queue.empty())
        work_.erase(uid);
      else
        turns_.push_back(uid);  // the user's next work waits for the others' turns
    }
    try {
      work();
    } catch (...) {
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (--running_ == 0 && waiting_ == 0) idle_.notify_all();
  }
}

}  // namespace tofa::service
