#include "net/worker_pool.hpp"

#include <algorithm>

namespace tofa::net {

WorkerPool::WorkerPool(int threads) {
  try {
    for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { run(); });
  } catch (...) {
    stop();
    throw;
  }
}

void WorkerPool::submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    queue_.push_back(std::move(job));
  }
  ready_.notify_one();
}

void WorkerPool::stop() {
  std::lock_guard<std::mutex> serial(stop_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  ready_.notify_all();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
}

void WorkerPool::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      job();
    } catch (...) {
    }
  }
}

}  // namespace tofa::net
