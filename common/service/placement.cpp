#include "service/placement.hpp"

#include <unordered_set>

#include "tofa/error.hpp"
#include "tofa/mapper.hpp"

namespace tofa::service {

std::vector<int> candidate_ids(const Topology& topology, const std::string& candidates) {
  std::vector<int> ids;
  if (candidates.empty()) return ids;
  std::unordered_set<int> seen;
  for (const std::string& name :
       expand_hostlist(candidates, static_cast<std::size_t>(topology.node_count()))) {
    const int id = topology.node_by_name(name);
    if (id < 0) throw Error("candidate node " + name + " is not in the topology");
    if (seen.insert(id).second) ids.push_back(id);
  }
  return ids;
}

ComputedPlacement compute_placement(const PlacementInput& input) {
  MappingRequest request;
  request.graph = input.graph;
  request.topology = input.topology;
  request.candidate_nodes = candidate_ids(*input.topology, input.candidates);
  request.outage = input.outage;
  request.slots_per_node = input.slots_per_node;
  request.fault_cost = input.fault_cost;
  const std::unique_ptr<Mapper> mapper = make_mapper(input.strategy);  // unknown names fail here
  const Placement placement =
      input.worker ? map_in_worker(request, input.strategy, *input.worker) : mapper->map(request);
  check_placement(request, placement);

  ComputedPlacement result;
  result.nodes.reserve(placement.size());
  for (int node : placement) result.nodes.push_back(input.topology->node_name(node));
  result.metrics = evaluate_placement(*input.graph, *input.topology, placement, input.outage);
  return result;
}

}  // namespace tofa::service
