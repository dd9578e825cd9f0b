#include "service/work_limits.hpp"

#include <cstdlib>

#include "base/error.hpp"

namespace tofa::service {
namespace {

void check_at_most(const std::map<std::string, std::string>& parameters, const char* name,
                   double limit, const std::string& why) {
  const auto found = parameters.find(name);
  if (found == parameters.end()) return;
  char* end = nullptr;
  const double value = std::strtod(found->second.c_str(), &end);
  if (end == found->second.c_str() || *end != '\0') return;
  if (value > limit)
    throw Error(std::string(name) + "=" + found->second + " is more than " + why);
}

}  // namespace

void check_work_limits(const std::map<std::string, std::string>& parameters, double time_limit) {
  if (time_limit > 0)
    check_at_most(parameters, "budget", time_limit,
                  "MapTimeLimit=" + std::to_string(static_cast<long long>(time_limit)) +
                      " s, after which the mapping is stopped");
  check_at_most(parameters, "sweeps", kMaxSweeps, "the service allows (100000)");
  check_at_most(parameters, "iterations", kMaxIterations, "the service allows (1e10)");
}

}  // namespace tofa::service
