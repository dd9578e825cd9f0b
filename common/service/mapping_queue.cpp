#include "service/mapping_queue.hpp"

#include "service/background_priority.hpp"

namespace tofa::service {

MappingQueue::MappingQueue(int threads) {
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
    std::deque<std::function<void()>>& queue = work_[uid];
    if (queue.empty()) turns_.push_back(uid);
    queue.push_back(std::move(work));
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

void MappingQueue::run() {
  lower_this_thread();
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !turns_.empty(); });
      if (stopping_) return;
      const uid_t uid = turns_.front();
      turns_.pop_front();
      std::deque<std::function<void()>>& queue = work_[uid];
      work = std::move(queue.front());
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
