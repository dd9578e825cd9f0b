// The one interface every mapping strategy implements, and its registry.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "faults/faults.hpp"
#include "faults/outage_table.hpp"
#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace tofa {

/// Everything a strategy may use. Pointers are non-owning and non-null.
struct MappingRequest {
  const CommGraph* graph = nullptr;
  const Topology* topology = nullptr;
  /// Nodes the job may use, in preference order (Slurm's node order, or the
  /// nodes cons_tres offers). Empty means every node in id order.
  std::vector<int> candidate_nodes;
  /// Outage probability per topology node; empty means all 0.
  OutageTable outage;
  /// Tasks a node may take; 0 means topology->cores_per_node().
  int slots_per_node = 0;
  std::uint64_t seed = 1;
  FaultCost fault_cost;
  /// Strategy-specific settings, e.g. {"stencil", "4x8x4"} or {"spec", "rubik.txt"}
  /// (tofa-map --param KEY=VALUE). Strategies ignore keys they do not know.
  std::map<std::string, std::string> parameters;
};

/// task -> topology node id
using Placement = std::vector<int>;

class Mapper {
 public:
  virtual ~Mapper() = default;
  /// Returns a complete placement: every task on one candidate node, no node
  /// above its slots. Throws Error when the tasks cannot fit.
  virtual Placement map(const MappingRequest& request) const = 0;
};

struct MapperInfo {
  const char* name;
  const char* summary;
  std::unique_ptr<Mapper> (*create)();
  /// False for strategies that need a particular job (a stencil shape) or a
  /// parameter (a Rubik spec); they throw Error on other requests.
  bool general = true;
};

/// Every strategy, in the order `tofa-map --list-strategies` prints them.
const std::vector<MapperInfo>& mapper_table();

/// The strategy a job gets when it names none (tofa.conf DefaultStrategy,
/// tofa-map --strategy).
inline constexpr const char* kDefaultStrategy = "auto";
/// Throws Error naming the unknown strategy and listing the known ones.
std::unique_ptr<Mapper> make_mapper(const std::string& name);

/// Helpers shared by strategies.
/// The candidate list with the empty-means-all rule applied (validated).
std::vector<int> effective_candidates(const MappingRequest& request);
/// Validates the request and its candidates without copying them (auto's
/// request may list 32,768 of them); returns their count.
std::size_t check_candidates(const MappingRequest& request);
/// A copy of `request` on `candidates`, without copying the request's own.
MappingRequest with_candidates(const MappingRequest& request, std::vector<int> candidates);
int effective_slots(const MappingRequest& request);
/// A request's checked size: its candidates (empty-means-all applied), slots
/// per node and task count.
struct Capacity {
  std::vector<int> candidates;
  int slots = 1;
  int tasks = 0;
  /// Nodes the tasks fill at `slots` each.
  int nodes_needed() const { return (tasks + slots - 1) / slots; }
};
/// Throws Error when tasks > slots * candidates.
Capacity check_capacity(const MappingRequest& request);
/// check_capacity without the copy of the candidates.
void check_fits(const MappingRequest& request);
/// Throws Error unless every task is on a candidate node and no node is over slots.
void check_placement(const MappingRequest& request, const Placement& placement);
/// Probability of node n (0 when outage is empty).
double outage_of(const MappingRequest& request, int node);
/// The value of a strategy parameter, or `fallback` when it is not set.
std::string parameter(const MappingRequest& request, const std::string& key,
                      const std::string& fallback = "");

}  // namespace tofa
