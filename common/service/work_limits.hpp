// Caps on the mapping work one request may ask for, checked before any work
// starts: a request cannot buy more than the worker would be given anyway.
#pragma once

#include <map>
#include <string>

namespace tofa::service {

/// Most sweeps (proposals per task) and iterations an annealing request may
/// ask for; the defaults are 2000 sweeps.
constexpr double kMaxSweeps = 100000;
constexpr double kMaxIterations = 1e10;

/// Throws Error naming the parameter when `budget` (seconds) is above
/// `time_limit` (MapTimeLimit; 0: none), or sweeps or iterations above the
/// caps. Values that are not numbers are left to the strategy to refuse.
void check_work_limits(const std::map<std::string, std::string>& parameters, double time_limit);

}  // namespace tofa::service
