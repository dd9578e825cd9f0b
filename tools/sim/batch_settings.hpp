// What one tofa-sim batch run is asked to do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app_spec.hpp"
#include "batch_model.hpp"
#include "failure_draw.hpp"
#include "platform.hpp"

namespace tofa::sim {

struct BatchSettings {
  std::string topology;  ///< file or spec, as given (tofa-map reads it too)
  PlatformOptions platform;
  AppSpec app;
  std::string program;  ///< the application's executable

  /// Where the placement comes from: one machine file for every batch, or
  /// `tofa-map --strategy` run per batch with that batch's outage
  /// probabilities (N_f at p_f) as --faults: it never sees the draws.
  std::string hostfile;
  std::string strategy;
  std::vector<std::string> map_args;  ///< more tofa-map arguments
  std::string tofa_map;               ///< tofa-map's path (strategy only)

  FailureModel model;
  std::vector<std::string> outage_nodes;  ///< N_f given by name (then n_f is their count)
  int batches = 10;
  int instances = 100;
  std::uint64_t seed = 1;
  AbortCost abort_cost = AbortCost::Full;
  int max_aborts = 10000;

  /// > 0: the placement's fault-free time, simulated elsewhere (a job that
  /// shares the machine: tofa-sim share); --hostfile only. 0: simulate it.
  double fault_free_time = 0;

  int jobs = 0;  ///< parallel simulations; 0: the core count
  std::string smpirun = "smpirun";
  std::vector<std::string> cfg;
  bool crosstraffic = true;
  std::string json;  ///< JSON output file
  std::string keep;  ///< keep the work files here
};

}  // namespace tofa::sim
