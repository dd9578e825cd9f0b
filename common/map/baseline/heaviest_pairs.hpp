// Greedy's order (seed TOFA 5.1), shared by greedy and greedy-routes: the
// task pairs by decreasing bytes (stable on undirected_edges()), each
// unplaced task beside its placed partner, tasks without bytes last.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "map/mapper.hpp"

namespace tofa {

/// Walks the pairs; the callbacks place tasks (they must set placement[task]):
/// `start(task)` for the first task of a pair with neither placed (its
/// lower-listed one), `beside(task, node)` for a task whose partner is on
/// `node`, `rest(task)` for every task still unplaced after the pairs.
template <typename Start, typename Beside, typename Rest>
void place_heaviest_pairs_first(const CommGraph& graph, const Placement& placement,
                                Start start, Beside beside, Rest rest) {
  std::vector<CommEdge> pairs = graph.undirected_edges();
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const CommEdge& a, const CommEdge& b) { return a.bytes > b.bytes; });
  for (const CommEdge& pair : pairs) {
    if (pair.bytes <= 0) break;
    int a = pair.from;
    int b = pair.to;
    if (placement[a] >= 0 && placement[b] >= 0) continue;
    if (placement[a] < 0 && placement[b] < 0) start(a);
    if (placement[a] < 0) std::swap(a, b);  // now a is placed, b is not
    beside(b, placement[a]);
  }
  for (int task = 0; task < static_cast<int>(placement.size()); ++task)
    if (placement[task] < 0) rest(task);
}

}  // namespace tofa
