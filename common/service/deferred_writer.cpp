#include "service/deferred_writer.hpp"

namespace tofa::service {

DeferredWriter::DeferredWriter(std::function<bool()> save) : save_(std::move(save)) {}

DeferredWriter::~DeferredWriter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

std::uint64_t DeferredWriter::request() {
  std::uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ticket = ++requested_;
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  wake_.notify_one();
  return ticket;
}

bool DeferredWriter::wait(std::uint64_t ticket) {
  std::unique_lock<std::mutex> lock(mutex_);
  saved_.wait(lock, [&] { return finished_ >= ticket; });
  return succeeded_ >= ticket;
}

void DeferredWriter::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return requested_ > started_ || stopping_; });
    if (requested_ > started_) {
      // The callback snapshots the state after this point, so it covers
      // every ticket handed out so far.
      started_ = requested_;
      lock.unlock();
      const bool ok = save_();  // the callback reports its own failures
      lock.lock();
      finished_ = started_;
      if (ok) succeeded_ = started_;
      saved_.notify_all();
    } else if (stopping_) {
      return;
    }
  }
}

}  // namespace tofa::service
