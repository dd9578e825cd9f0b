// Node failures as the TOFA seed models them (section 5.2): per batch, n_f
// nodes drawn at random get outage probability p_f; each instance of the
// batch draws which of them are failed; an instance aborts when it depends on
// a failed node.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace tofa::sim {

/// Uniform integer in [0, bound), bound >= 1: rejection sampling on the
/// outputs of `rng`, so that the sequence is fixed by mt19937_64 alone
/// (std::uniform_int_distribution's algorithm is the standard library's
/// choice and differs between implementations).
std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t bound);

/// Uniform double in [0, 1) from the top 53 bits of one output of `rng`.
double draw_unit(std::mt19937_64& rng);

struct FailureModel {
  int failing_nodes = 16;            ///< n_f: nodes with a non-zero outage probability
  double outage_probability = 0.02;  ///< p_f: the same for each of them
};

/// One batch and everything needed to redraw any part of it.
struct BatchDraw {
  std::uint64_t seed = 0;
  std::vector<int> outage_nodes;              ///< N_f, ascending
  std::vector<std::uint64_t> instance_seeds;  ///< one per instance
  std::vector<std::vector<int>> failed;       ///< per instance: failed nodes, ascending
};

/// Draws a batch of `instances` instances on `node_count` nodes:
///  - rng = mt19937_64(seed); N_f = the first n_f entries of a Fisher-Yates
///    shuffle of 0..node_count-1 (step i swaps entry i with entry
///    i + draw_below(rng, node_count - i)), sorted;
///  - instance k's seed is the next output of rng;
///  - instance k: r = mt19937_64(its seed); each node of N_f in ascending
///    order is failed when draw_unit(r) < p_f.
/// Throws Error when n_f is outside [0, node_count], p_f outside [0, 1] or
/// instances < 0.
BatchDraw draw_batch(int node_count, const FailureModel& model, int instances, std::uint64_t seed);

/// The same batch with N_f given (any order, no repeats) instead of drawn:
/// rng = mt19937_64(seed), instance k's seed is its k-th output, the
/// instances' draws as above. Throws Error on a repeated or negative node,
/// p_f outside [0, 1] or instances < 0.
BatchDraw draw_batch_on(const std::vector<int>& outage_nodes, double outage_probability,
                        int instances, std::uint64_t seed);

/// One run's draw: each node of `outage_nodes` (ascending) is failed when
/// draw_unit(rng) < p_f. An instance's first run is draw_failed on
/// mt19937_64(its seed); its re-runs continue the same stream.
std::vector<int> draw_failed(std::mt19937_64& rng, const std::vector<int>& outage_nodes,
                             double outage_probability);

/// Seeds of `count` batches: the first `count` outputs of mt19937_64(master).
std::vector<std::uint64_t> batch_seeds(std::uint64_t master, int count);

/// Marks (1) every node an instance of the job depends on: the nodes of the
/// placement, and every node that R(p_a, p_b) or R(p_b, p_a) passes through
/// for two communicating tasks a, b (an edge of `graph`: bytes or messages
/// between them) on different nodes. `placement[t]` is the node of task t.
/// Throws Error when the placement does not fit the graph and topology.
std::vector<char> nodes_in_use(const Topology& topology, const CommGraph& graph,
                               const std::vector<int>& placement);

/// The first failed node (in the order of `failed`) that `in_use` marks, or
/// -1 when the instance runs to completion.
int abort_cause(const std::vector<char>& in_use, const std::vector<int>& failed);

inline bool instance_aborts(const std::vector<char>& in_use, const std::vector<int>& failed) {
  return abort_cause(in_use, failed) >= 0;
}

}  // namespace tofa::sim
