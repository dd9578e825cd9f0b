// The target architectures of the tofa strategy (one Scotch terminal per
// topology node).
#pragma once

#include <scotch.h>

#include <memory>
#include <vector>

#include "faults/faults.hpp"
#include "map/scotch/scotch_objects.hpp"
#include "topology/topology.hpp"

namespace tofa {
namespace scotch {

/// A target architecture over a set of topology nodes.
class Target {
 public:
  /// `terminal_nodes[t]` is the topology node of Scotch terminal number t.
  Target(std::unique_ptr<Arch> base, std::unique_ptr<Arch> sub, std::vector<int> nodes,
         std::vector<int> terminal_nodes, long long max_distance);
  /// The architecture to map onto (the sub-architecture when there is one).
  const SCOTCH_Arch* arch() const { return (sub_ ? sub_ : base_)->get(); }
  /// The nodes, in the order they were given.
  const std::vector<int>& nodes() const { return nodes_; }
  /// The node of a terminal number returned by SCOTCH_graphMap.
  int node_of_terminal(SCOTCH_Num terminal) const;
  /// An upper bound of the distance between two terminals.
  long long max_distance() const { return max_distance_; }
  /// Scotch's distance between the terminals of nodes()[i] and nodes()[j],
  /// for tests. Throws on a whole decomposition-defined architecture
  /// (Scotch 7.0.3's SCOTCH_archDomTerm is off by one domain there).
  int distance(int i, int j, const Lock& held) const;

 private:
  std::unique_ptr<Arch> base_;  // declared first: sub_ points into it
  std::unique_ptr<Arch> sub_;
  std::vector<int> nodes_;
  std::vector<int> terminal_nodes_;
  long long max_distance_;
};

/// The topology restricted to `nodes`; distances are hops. torusXD when every
/// dimension wraps (up to 5 dimensions), mesh2D/mesh3D when none wraps in 1 to
/// 3 dimensions (Scotch 7.0.3's meshXD measures mesh distances as if they
/// wrapped), otherwise a decomposition-defined architecture of the topology
/// graph with unit links (see fault_weighted_target). Cached.
std::shared_ptr<const Target> topology_target(const Topology& topology,
                                              const std::vector<int>& nodes, const Lock& held);

/// `nodes` with Equation 1 as the distance: between nodes u and v, the sum
/// over the links of R(u,v) and of R(v,u) of c, or c + penalty*c for a link
/// with an endpoint of p > 0, divided by c and rounded (min 1). The routes
/// are the network's dimension-order routes, which may pass through faulty
/// nodes and through nodes outside `nodes`. Up to kExplicitDistanceLimit (128)
/// nodes this is exact (a "deco 0" architecture with the distance table,
/// deco_arch.hpp); above, shortest paths in the topology graph with each
/// link weighted by Equation 1 (SCOTCH_archBuild2, approximate, and a path
/// may go around a faulty node). `outage` has one entry per node. Cached
/// by (dims, wrap, nodes, faulty pattern, cost).
std::shared_ptr<const Target> fault_weighted_target(const Topology& topology,
                                                    const std::vector<int>& nodes,
                                                    const std::vector<double>& outage,
                                                    const FaultCost& cost, const Lock& held);

}  // namespace scotch
}  // namespace tofa
