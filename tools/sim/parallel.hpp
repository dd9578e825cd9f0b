// Independent jobs on a few threads, with a progress line on a terminal.
#pragma once

#include <functional>
#include <string>

namespace tofa::sim {

/// Calls job(0) .. job(count - 1), at most `threads` at a time (0: the core
/// count), showing "label: done/count" on a terminal. Rethrows the first
/// job's exception (by index) after every job has ended.
void run_parallel(int count, int threads, const std::string& label,
                  const std::function<void(int)>& job);

/// The number of cores this process may use (at least 1).
int core_count();

}  // namespace tofa::sim
