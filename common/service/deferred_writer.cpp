#include "service/deferred_writer.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/error.hpp"
#include "service/background_priority.hpp"

namespace tofa::service {

DeferredWriter::DeferredWriter(std::function<bool()> save)
    : save_(std::move(save)), wake_(::eventfd(0, EFD_CLOEXEC)) {
  if (wake_ < 0) throw Error(std::string("eventfd: ") + std::strerror(errno));
  thread_ = std::thread([this] { run(); });
}

DeferredWriter::~DeferredWriter() {
  stopping_ = true;
  wake();
  thread_.join();
  ::close(wake_);
}

void DeferredWriter::wake() {
  const std::uint64_t one = 1;
  while (::write(wake_, &one, sizeof one) < 0 && errno == EINTR) {
  }
}

std::uint64_t DeferredWriter::request() {
  const std::uint64_t ticket = ++requested_;
  wake();
  return ticket;
}

bool DeferredWriter::wait(std::uint64_t ticket) {
  std::unique_lock<std::mutex> lock(mutex_);
  saved_.wait(lock, [&] { return finished_ >= ticket; });
  return succeeded_ >= ticket;
}

void DeferredWriter::run() {
  idle_this_thread();
  std::uint64_t started = 0;
  for (;;) {
    std::uint64_t count = 0;
    if (::read(wake_, &count, sizeof count) < 0 && errno == EINTR) continue;
    // Read before the callback snapshots the state: the run covers every
    // ticket handed out so far.
    const std::uint64_t covered = requested_;
    if (covered > started) {
      started = covered;
      const bool ok = save_();  // the callback reports its own failures
      std::lock_guard<std::mutex> lock(mutex_);
      finished_ = started;
      if (ok) succeeded_ = started;
      saved_.notify_all();
    }
    if (stopping_ && requested_ == started) return;
  }
}

}  // namespace tofa::service
