// One placement computation: a registered strategy over named candidate nodes.
#pragma once

#include <string>
#include <vector>

#include "service/map_worker.hpp"
#include "tofa/faults.hpp"
#include "tofa/graph.hpp"
#include "tofa/metrics.hpp"
#include "tofa/topology.hpp"

namespace tofa::service {

struct PlacementInput {
  const Topology* topology = nullptr;
  const CommGraph* graph = nullptr;
  std::vector<double> outage;  ///< per topology node
  FaultCost fault_cost;
  std::string strategy;        ///< a registered name
  /// Node names in preference order, hostlist ranges allowed; "" = all nodes.
  std::string candidates;
  int slots_per_node = 0;      ///< 0 = cores per node
  /// Where the strategy runs: a worker process with these limits, or this
  /// process when null (tools and tests only: never inside a daemon).
  const MapWorkerLimits* worker = nullptr;
};

struct ComputedPlacement {
  std::vector<std::string> nodes;  ///< node name per task
  PlacementMetrics metrics;
};

/// The candidate ids of a node list: names resolved through the topology,
/// repeats dropped. Throws Error "candidate node X is not in the topology".
std::vector<int> candidate_ids(const Topology& topology, const std::string& candidates);

/// Runs the strategy and evaluates the result. Throws Error (unknown
/// strategy, not enough slots, ...).
ComputedPlacement compute_placement(const PlacementInput& input);

}  // namespace tofa::service
