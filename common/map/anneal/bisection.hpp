// The seed's divide-and-conquer (Figure 4): recursive bisection of the
// communication graph with Scotch until a half would be too loosely bound to
// the rest (Equation 5), giving the subgraphs to anneal one after the other.
#pragma once

#include <cstdint>
#include <vector>

#include "graph/graph.hpp"

namespace tofa {
namespace anneal {

/// Equation 5: l = sum_{i,j in S} C(i,j) / sum_{i in S, j in V} C(i,j), the
/// share of S's traffic that stays inside S. 1 when S has no traffic.
/// `in_subset` has one flag per task.
double connectivity_ratio(const CommGraph& graph, const std::vector<int>& subset,
                          const std::vector<char>& in_subset);

/// Figure 4 from S = every task and P = {}: bisect S (Scotch, balanced); if
/// either half has l < limit, S is one stage; otherwise recurse into the half
/// with more traffic to the tasks of earlier stages first (the second half
/// on ties). Stages of fewer than two tasks are not split. limit <= 0 gives
/// one stage. Deterministic for a seed (each bisection runs in a Scotch
/// context with the deterministic option and the seed).
std::vector<std::vector<int>> bisection_stages(const CommGraph& graph, double limit,
                                               std::uint64_t seed);

}  // namespace anneal
}  // namespace tofa
