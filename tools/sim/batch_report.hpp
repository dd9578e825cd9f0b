// What tofa-sim batch reports: a table on standard output and a JSON file
// with every seed.
#pragma once

#include <string>
#include <vector>

#include "batch_model.hpp"
#include "batch_settings.hpp"
#include "failure_draw.hpp"
#include "simulate.hpp"
#include "topology/topology.hpp"

namespace tofa::sim {

/// One distinct placement, simulated once, and the batches that use it.
struct Placement {
  std::vector<int> nodes;
  std::vector<int> batches;
  std::vector<char> in_use;  ///< nodes_in_use of the application's graph
  SimulationResult result;
};

struct BatchReport {
  const BatchSettings& settings;
  const Topology& topology;
  const std::vector<BatchDraw>& draws;
  const std::vector<Placement>& placements;
  const std::vector<int>& placement_of_batch;
  const std::vector<BatchOutcome>& outcomes;
};

/// The header, each placement's result line, one line per batch (batch,
/// seed, placement, fault-free, completion, runs, aborted, abort ratio) and
/// the summary.
void print_batches(const BatchReport& report);

/// The report as JSON; `placement` in a batch indexes `placements` from 0.
void write_batch_json(const std::string& path, const BatchReport& report);

}  // namespace tofa::sim
