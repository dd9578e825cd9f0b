// One placement computation: a registered strategy over named candidate nodes.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "faults/faults.hpp"
#include "graph/graph.hpp"
#include "map/task_limits.hpp"
#include "metrics/metrics.hpp"
#include "service/map_worker.hpp"
#include "topology/topology.hpp"

namespace tofa::service {

struct PlacementInput {
  const Topology* topology = nullptr;
  const CommGraph* graph = nullptr;
  /// per topology node; a shared snapshot: the service takes it under its
  /// lock without copying (null = no outage)
  std::shared_ptr<const std::vector<double>> outage;
  FaultCost fault_cost;
  /// Over fault_cost.link_extra (RunningLinks::add_interference_to): a
  /// running job's own links freed of its bytes.
  LinkCostPatch link_extra_patch;
  std::string strategy;        ///< a registered name
  /// Node names in preference order, hostlist ranges allowed; "" = all nodes.
  /// With per-node task limits when every item ends in ":MAX" or
  /// ":MIN-MAX" ("t[1-2]:1-8,t5:1-3" is an allocation: every node used,
  /// within its CPUs); then only those nodes are used, within the limits.
  std::string candidates;
  int slots_per_node = 0;      ///< 0 = cores per node; must be 0 with limits
  /// With limits: the placement spans at least min_nodes and at most
  /// max_nodes distinct nodes (0 = no bound), as srun -N MIN-MAX asks.
  int min_nodes = 0;
  int max_nodes = 0;
  std::map<std::string, std::string> parameters;  ///< the strategy's settings
  /// For a candidate list with limits, in this order while the job still
  /// fits in what is left: nodes above OutageThreshold are dropped, tasks
  /// already promised per node name (direct sruns not started yet) are
  /// taken off the maximums.
  std::vector<std::string> failing;
  std::map<std::string, int> promised;
  /// Where the strategy runs: a worker process with these limits, or this
  /// process when null (tools and tests only: never inside a daemon).
  const MapWorkerLimits* worker = nullptr;
  /// False: compute_placement leaves the metrics empty (a caller that
  /// publishes the order first and evaluates it after).
  bool metrics = true;
};

struct ComputedPlacement {
  std::vector<std::string> nodes;  ///< node name per task
  Placement placement;             ///< the same as topology node ids
  PlacementMetrics metrics;
};

/// The nodes of a candidate list (see PlacementInput::candidates), names
/// resolved through the topology, in the given order; min_tasks and
/// max_tasks are empty when the list has no limits (then repeats are
/// dropped; with limits a repeat is an error). Throws Error "candidate node X
/// is not in the topology", or naming the item whose limits are bad.
TaskLimits parse_candidates(const Topology& topology, const std::string& candidates);

/// One candidate given by name with its task limits (the scheduler's
/// candidates without a text to build and parse).
struct NamedCandidate {
  std::string_view name;
  int min_tasks = 0;
  int max_tasks = 1;
};
/// The same limits as parse_candidates, from a list; the same errors.
TaskLimits candidate_limits(const Topology& topology, const std::vector<NamedCandidate>& candidates);
/// The text parse_candidates reads back as `limits` ("NODE:MIN-MAX,...").
std::string candidates_text(const Topology& topology, const TaskLimits& limits);

/// Strategy parameters as users give them to Slurm jobs ("--tofa-param
/// KEY=VALUE", joined as "KEY=VALUE;KEY=VALUE"): at most 16, keys of
/// letters, digits, '-' and '_', values of 1 to 256 printable characters.
/// The service never reads files named by users: `spec` (a Rubik spec
/// file) is refused. Throws Error naming the bad item.
std::map<std::string, std::string> parse_parameters(const std::string& text);

/// Runs the strategy and evaluates the result (unless !input.metrics).
/// Throws Error (unknown strategy, not enough slots, ...).
ComputedPlacement compute_placement(const PlacementInput& input);

}  // namespace tofa::service
