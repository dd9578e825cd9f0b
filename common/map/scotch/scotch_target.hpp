// RAII wrappers over the Scotch objects we use, and the target architectures
// of the tofa strategy (one Scotch terminal per topology node).
#pragma once

#include <scotch.h>

#include <memory>
#include <mutex>
#include <vector>

#include "../../tofa/faults.hpp"
#include "../../tofa/graph.hpp"
#include "../../tofa/topology.hpp"

namespace tofa {
namespace scotch {

/// Scotch's random generator is global, so every use of the library (and of
/// the objects below) happens under this lock. Functions that need it take
/// the held lock as a parameter.
using Lock = std::unique_lock<std::mutex>;
Lock lock();

/// Throws Error("Scotch call CALL failed (return code RC)") when rc != 0.
void check(int rc, const char* call);

class Arch {
 public:
  Arch();
  ~Arch();
  Arch(const Arch&) = delete;
  Arch& operator=(const Arch&) = delete;
  SCOTCH_Arch* get() { return &arch_; }
  const SCOTCH_Arch* get() const { return &arch_; }

 private:
  SCOTCH_Arch arch_;
};

class Strat {
 public:
  Strat();
  ~Strat();
  Strat(const Strat&) = delete;
  Strat& operator=(const Strat&) = delete;
  SCOTCH_Strat* get() { return &strat_; }

 private:
  SCOTCH_Strat strat_;
};

/// The strategy SCOTCH_stratGraphMapBuild(flags, parts, balance) builds, kept
/// for the process: Scotch 7.0's strategy parser leaks a few hundred bytes per
/// parse, which mapping workers (kept between jobs) would pile up, one parse
/// per Scotch call. Valid until the next call.
SCOTCH_Strat* map_strategy(SCOTCH_Num flags, SCOTCH_Num parts, double balance, const Lock& held);

/// An undirected graph in Scotch's CSR form (base 0, no vertex weights).
/// Scotch keeps pointers into the arrays, so the object owns them.
class Graph {
 public:
  /// Every edge must appear in both directions with the same weight (>= 1).
  Graph(std::vector<SCOTCH_Num> offsets, std::vector<SCOTCH_Num> adjacency,
        std::vector<SCOTCH_Num> weights);
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  SCOTCH_Graph* get() { return &graph_; }
  int vertex_count() const { return static_cast<int>(offsets_.size()) - 1; }

 private:
  std::vector<SCOTCH_Num> offsets_;
  std::vector<SCOTCH_Num> adjacency_;
  std::vector<SCOTCH_Num> weights_;
  SCOTCH_Graph graph_;
};

/// The communication graph with bytes scaled proportionally to integers in
/// [1, 2^16] (edges without bytes left out), smaller when needed so that
/// weights * `max_distance` cannot overflow Scotch's 32-bit cost sums.
Graph weighted_graph(const CommGraph& graph, long long max_distance);

/// `graph` seen through a Scotch context of one thread, deterministic, with
/// `seed`. Without a context Scotch 7 starts a pool of one thread per core
/// for every call, whose threads spin on a mutex until the call ends: inside
/// slurmctld's scheduler, beside job steps on few cores, a 16-task mapping
/// then took 1 to 10 ms instead of 0.05 ms. Use get() while it lives; the
/// graph must outlive it.
class SingleThreadGraph {
 public:
  SingleThreadGraph(Graph& graph, SCOTCH_Num seed);
  ~SingleThreadGraph();
  SingleThreadGraph(const SingleThreadGraph&) = delete;
  SingleThreadGraph& operator=(const SingleThreadGraph&) = delete;
  SCOTCH_Graph* get() { return &bound_; }

 private:
  SCOTCH_Context context_;
  SCOTCH_Graph bound_;
};

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
