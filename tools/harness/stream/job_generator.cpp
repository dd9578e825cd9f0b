// The seeded job stream generator.
#include "job_generator.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "base/error.hpp"
#include "random_draws.hpp"

namespace tofa::harness {
namespace {

void check(const JobStreamConfig& config) {
  auto fail = [](const std::string& what) { throw Error("job stream: " + what); };
  if (config.jobs < 0) fail("jobs must be >= 0, got " + std::to_string(config.jobs));
  if (config.machine_slots < 1)
    fail("machine slots must be >= 1, got " + std::to_string(config.machine_slots));
  if (config.max_tasks < 1) fail("max tasks must be >= 1, got " + std::to_string(config.max_tasks));
  if (!(config.load > 0) || !std::isfinite(config.load))
    fail("load must be > 0, got " + std::to_string(config.load));
  if (!(config.power_of_two_share >= 0 && config.power_of_two_share <= 1))
    fail("power-of-two share must be in [0, 1], got " + std::to_string(config.power_of_two_share));
  if (!(config.min_runtime > 0 && config.min_runtime <= config.max_runtime) ||
      !std::isfinite(config.max_runtime))
    fail("runtimes must satisfy 0 < min <= max, got " + std::to_string(config.min_runtime) +
         " and " + std::to_string(config.max_runtime));
  if (!(config.max_overestimate >= 1) || !std::isfinite(config.max_overestimate))
    fail("max overestimate must be >= 1, got " + std::to_string(config.max_overestimate));
  if (config.users < 1) fail("users must be >= 1, got " + std::to_string(config.users));
}

int draw_tasks(std::mt19937_64& rng, const JobStreamConfig& config) {
  if (draw_unit(rng) < config.power_of_two_share) {
    int top = 0;
    while ((2LL << top) <= config.max_tasks) ++top;
    return 1 << static_cast<int>(draw_below(rng, static_cast<std::uint64_t>(top) + 1));
  }
  const double size = draw_log_uniform(rng, 1.0, static_cast<double>(config.max_tasks) + 1.0);
  const int tasks = static_cast<int>(std::floor(size));
  return tasks < 1 ? 1 : (tasks > config.max_tasks ? config.max_tasks : tasks);
}

}  // namespace

std::vector<StreamJob> generate_jobs(const JobStreamConfig& config) {
  check(config);
  std::mt19937_64 rng(config.seed);
  std::vector<StreamJob> jobs(static_cast<std::size_t>(config.jobs));
  double work = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    StreamJob& job = jobs[i];
    job.id = static_cast<long>(i) + 1;
    job.tasks = draw_tasks(rng, config);
    job.runtime = std::max(1.0, std::round(draw_log_uniform(rng, config.min_runtime,
                                                            config.max_runtime)));
    const double factor = 1.0 + draw_unit(rng) * (config.max_overestimate - 1.0);
    job.requested_time = std::max(job.runtime, std::ceil(job.runtime * factor));
    job.user = 1 + static_cast<int>(draw_below(rng, static_cast<std::uint64_t>(config.users)));
    work += job.runtime * job.tasks;
  }
  if (jobs.empty()) return jobs;
  const double mean_gap = work / (static_cast<double>(jobs.size()) * config.load *
                                  static_cast<double>(config.machine_slots));
  double clock = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0) clock += draw_exponential(rng, mean_gap);
    jobs[i].submit = std::round(clock);
  }
  return jobs;
}

}  // namespace tofa::harness
