// A small thread pool for the simulations of tofa-sim batch.
#include "parallel.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <thread>
#include <vector>

#include "progress.hpp"

namespace tofa::sim {

int core_count() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

void run_parallel(int count, int threads, const std::string& label,
                  const std::function<void(int)>& job) {
  if (count <= 0) return;
  if (threads <= 0) threads = core_count();
  threads = std::min(threads, count);
  std::atomic<int> next{0}, done{0};
  std::vector<std::exception_ptr> errors(count);
  auto work = [&] {
    for (int i; (i = next++) < count; ++done) {
      try {
        job(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(work);
  Progress progress(label, count);
  while (done < count) {
    progress.update(done);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& thread : pool) thread.join();
  progress.finish();
  for (const auto& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace tofa::sim
