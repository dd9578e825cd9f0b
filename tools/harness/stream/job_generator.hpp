// Synthetic job streams shaped like Parallel Workloads Archive traces.
#pragma once

#include <cstdint>
#include <vector>

#include "swf.hpp"

namespace tofa::harness {

struct JobStreamConfig {
  int jobs = 1000;
  long long machine_slots = 512;     ///< nodes x slots per node: what `load` refers to
  int max_tasks = 512;               ///< largest job (<= machine_slots for a feasible stream)
  double load = 0.9;                 ///< offered load: work submitted / (slots x submit span)
  double power_of_two_share = 0.6;   ///< share of sizes that are powers of two
  double min_runtime = 60;           ///< seconds
  double max_runtime = 36000;        ///< seconds
  double max_overestimate = 3.0;     ///< requested_time = runtime x uniform [1, this]
  int users = 16;                    ///< user ids 1..users
  std::uint64_t seed = 1;
};

/// `config.jobs` jobs (ids 1..N) from std::mt19937_64(seed) through the
/// portable draws of random_draws.hpp, so a seed gives the same stream on
/// every machine. Sizes: with probability power_of_two_share a power of two
/// 2^k, k uniform in [0, floor(log2 max_tasks)], else log-uniform in
/// [1, max_tasks] (rounded down). Runtimes: log-uniform in [min_runtime,
/// max_runtime], whole seconds. Requested times: runtime x uniform [1,
/// max_overestimate], rounded up to whole seconds. Arrivals: Poisson, the
/// mean gap chosen from the drawn jobs' total work W (sum of tasks x runtime)
/// as W / (jobs x load x machine_slots), so the offered load is `load`;
/// submit times are whole seconds, the first at 0.
/// Throws tofa::Error on jobs < 0, machine_slots < 1, max_tasks < 1,
/// load <= 0, a share outside [0, 1], 0 < min_runtime <= max_runtime not
/// holding, max_overestimate < 1 or users < 1. O(jobs).
std::vector<StreamJob> generate_jobs(const JobStreamConfig& config);

}  // namespace tofa::harness
