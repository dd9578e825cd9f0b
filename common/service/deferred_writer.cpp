#include "service/deferred_writer.hpp"

namespace tofa::service {

DeferredWriter::DeferredWriter(std::function<void()> save)
    : save_(std::move(save)), thread_([this] { run(); }) {}

DeferredWriter::~DeferredWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void DeferredWriter::request() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_ = true;
  }
  wake_.notify_one();
}

void DeferredWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return pending_ || stopping_; });
    if (pending_) {
      pending_ = false;
      lock.unlock();
      save_();  // the callback reports its own failures
      lock.lock();
    } else if (stopping_) {
      return;
    }
  }
}

}  // namespace tofa::service
