// Abort and re-run accounting of the seed's batches.
#include "batch_model.hpp"

#include <random>

#include "base/error.hpp"

namespace tofa::sim {

AbortCost parse_abort_cost(const std::string& name) {
  if (name == "full") return AbortCost::Full;
  if (name == "uniform") return AbortCost::Uniform;
  if (name == "start") return AbortCost::Start;
  throw Error("unknown abort cost '" + name + "': expected full, uniform or start");
}

std::string abort_cost_name(AbortCost cost) {
  switch (cost) {
    case AbortCost::Full:
      return "full";
    case AbortCost::Uniform:
      return "uniform";
    case AbortCost::Start:
      return "start";
  }
  return "?";
}

InstanceOutcome run_instance(std::uint64_t seed, const std::vector<int>& outage_nodes,
                             double outage_probability, const std::vector<char>& in_use,
                             double fault_free_time, AbortCost cost, int max_aborts) {
  InstanceOutcome outcome;
  outcome.seed = seed;
  std::mt19937_64 rng(seed);
  while (true) {
    const int cause = abort_cause(in_use, draw_failed(rng, outage_nodes, outage_probability));
    if (cause < 0) {
      outcome.time += fault_free_time;
      return outcome;
    }
    if (outcome.aborts == max_aborts)
      throw Error("instance seed " + std::to_string(seed) + ": " + std::to_string(max_aborts + 1) +
                  " runs in a row aborted (p_f = " + std::to_string(outage_probability) +
                  " on a node the job uses)");
    ++outcome.aborts;
    outcome.causes.push_back(cause);
    if (cost == AbortCost::Full) outcome.time += fault_free_time;
    if (cost == AbortCost::Uniform) outcome.time += draw_unit(rng) * fault_free_time;
  }
}

BatchOutcome run_batch(const BatchDraw& batch, double outage_probability,
                       const std::vector<char>& in_use, double fault_free_time, AbortCost cost,
                       int max_aborts) {
  BatchOutcome outcome;
  outcome.seed = batch.seed;
  outcome.fault_free_time = fault_free_time;
  outcome.instances = static_cast<int>(batch.instance_seeds.size());
  for (std::uint64_t seed : batch.instance_seeds) {
    InstanceOutcome instance = run_instance(seed, batch.outage_nodes, outage_probability, in_use,
                                            fault_free_time, cost, max_aborts);
    outcome.completion_time += instance.time;
    outcome.aborts += instance.aborts;
    outcome.aborted_instances += instance.aborts > 0;
    outcome.instance.push_back(std::move(instance));
  }
  outcome.runs = outcome.instances + outcome.aborts;
  return outcome;
}

}  // namespace tofa::sim
