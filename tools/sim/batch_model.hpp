// The seed's batches (section 5.2) as arithmetic: which runs of an instance
// abort, what each costs, and the batch's completion time and abort ratio.
// No SimGrid: the only simulated quantity is the fault-free run time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "failure_draw.hpp"

namespace tofa::sim {

/// What an aborted run adds to the batch's completion time.
enum class AbortCost {
  /// A whole fault-free run: "each time a job is aborted, the batch
  /// completion time is augmented by a time interval equal to a successful
  /// run, and then the job is restarted" (the seed, section 5.2).
  Full,
  /// The run aborts at a uniform random point: U x the fault-free time, U
  /// drawn from the instance's stream right after that run's failures.
  Uniform,
  /// The abort is noticed at the start: nothing.
  Start,
};

AbortCost parse_abort_cost(const std::string& name);  ///< full, uniform, start; throws Error
std::string abort_cost_name(AbortCost cost);

struct InstanceOutcome {
  std::uint64_t seed = 0;
  int aborts = 0;           ///< aborted runs before the one that completes
  std::vector<int> causes;  ///< abort_cause of each aborted run
  double time = 0;          ///< aborted runs' costs + the fault-free time
};

struct BatchOutcome {
  std::uint64_t seed = 0;
  double fault_free_time = 0;
  double completion_time = 0;  ///< sum of the instances' times
  int instances = 0;
  long long runs = 0;         ///< instances + aborts
  long long aborts = 0;       ///< aborted runs
  int aborted_instances = 0;  ///< instances with at least one aborted run
  std::vector<InstanceOutcome> instance;

  /// The seed's abort ratio: the fraction of instances that were aborted.
  /// An instance aborts at least once exactly when its first run does, so
  /// this is also the first runs' abort ratio (what tofa-sim failures counts).
  double abort_ratio() const {
    return instances ? static_cast<double>(aborted_instances) / instances : 0.0;
  }
};

/// One instance: rng = mt19937_64(seed); run r draws draw_failed(rng,
/// outage_nodes, p_f) (run 0 is the batch's failed[k]); it aborts when
/// abort_cause(in_use, failed) >= 0, costing `cost` (Uniform: one more
/// draw_unit), and the instance runs again; the first run that does not
/// abort costs `fault_free_time` and ends it. Throws Error when run
/// max_aborts + 1 aborts too (p_f = 1 on a node in use never ends).
InstanceOutcome run_instance(std::uint64_t seed, const std::vector<int>& outage_nodes,
                             double outage_probability, const std::vector<char>& in_use,
                             double fault_free_time, AbortCost cost, int max_aborts);

/// Every instance of `batch` with run_instance.
BatchOutcome run_batch(const BatchDraw& batch, double outage_probability,
                       const std::vector<char>& in_use, double fault_free_time, AbortCost cost,
                       int max_aborts);

}  // namespace tofa::sim
