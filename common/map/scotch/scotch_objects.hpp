// RAII wrappers over the Scotch objects we use, and the communication graph
// in Scotch's form.
#pragma once

#include <scotch.h>

#include <mutex>
#include <vector>

#include "graph/graph.hpp"

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

}  // namespace scotch
}  // namespace tofa
