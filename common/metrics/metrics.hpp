// Quality of a placement of tasks onto nodes.
#pragma once

#include <utility>
#include <vector>

#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace tofa {

struct PlacementMetrics {
  int tasks = 0;
  int nodes_used = 0;
  double total_bytes = 0;
  double hop_bytes = 0;           ///< sum over edges of bytes * hops
  double average_hops = 0;        ///< mean hops over communicating pairs (edges)
  double hop_variance = 0;        ///< population variance of the same
  int max_hops = 0;               ///< maximum dilation over edges
  double dilation = 0;            ///< byte-weighted mean hops = hop_bytes / total_bytes
  double max_link_load = 0;       ///< bytes on the busiest directed link under R(u,v)
  int links_used = 0;             ///< directed links that carry any byte
  double abort_probability = 0;   ///< see expected_abort_probability
  double mims = 0;                ///< heaviest edge between tasks on different nodes (Chung et al.)
};

/// Bytes carried by each directed link (index Topology::link_id) when every
/// edge {u,v} sends G(u,v) along R(node(u), node(v)) and G(v,u) back along
/// R(node(v), node(u)) (CommGraph::sent; half each way for a graph that does
/// not keep who sends).
std::vector<double> link_loads(const CommGraph& graph, const Topology& topology,
                               const std::vector<int>& placement);

/// The same loads as (link id, bytes) pairs in ascending link id, only the
/// links that carry bytes: no vector of every link of the machine.
std::vector<std::pair<int, double>> sparse_link_loads(const CommGraph& graph,
                                                      const Topology& topology,
                                                      const std::vector<int>& placement);

/// Maximum Interconnective Message Size: the largest bytes of an edge {u,v}
/// with group_of[u] != group_of[v]; 0 when no edge crosses groups. group_of
/// may be a Packing's pack_of or a placement (task -> node). O(m).
/// Throws Error when group_of does not have one entry per task.
double mims(const CommGraph& graph, const std::vector<int>& group_of);

/// All metrics at once. Tasks on the same node are 0 hops apart.
/// Throws Error when placement has the wrong size or a node id out of range.
PlacementMetrics evaluate_placement(const CommGraph& graph, const Topology& topology,
                                    const std::vector<int>& placement,
                                    const std::vector<double>& outage = {});

}  // namespace tofa
