// MIMS packing (seed Chung et al., Algorithm 1): the MIMS it reaches equals
// the brute-force optimum on random small graphs for k = 2, 4, 6 (and 3),
// the packs are valid, and the metric and the graph of packs are right.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "base/error.hpp"
#include "map/mims/mims.hpp"

namespace {

using tofa::CommEdge;
using tofa::CommGraph;

/// Random graph: each pair talks with probability `density`, bytes drawn
/// from 1..5 so that ties (which the greedy must survive) are common.
CommGraph random_graph(int tasks, double density, std::mt19937& engine) {
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> bytes(1, 5);
  std::vector<CommEdge> edges;
  for (int u = 0; u < tasks; ++u)
    for (int v = u + 1; v < tasks; ++v)
      if (coin(engine) < density) edges.push_back({u, v, static_cast<double>(bytes(engine)), 1});
  return CommGraph::from_directed_edges(tasks, edges);
}

/// Minimum MIMS over every way to put the tasks into ceil(n/k) packs of at
/// most k tasks (pack labels in order of first use, to skip relabellings).
double brute_force_mims(const CommGraph& graph, int k) {
  const int tasks = graph.task_count();
  const int packs = (tasks + k - 1) / k;
  std::vector<int> pack_of(tasks, -1), load(packs, 0);
  double best = 1e300;
  std::function<void(int, int)> assign = [&](int task, int used) {
    if (task == tasks) {
      best = std::min(best, tofa::mims(graph, pack_of));
      return;
    }
    for (int p = 0; p < std::min(used + 1, packs); ++p) {
      if (load[p] == k) continue;
      pack_of[task] = p;
      ++load[p];
      assign(task + 1, std::max(used, p + 1));
      --load[p];
    }
  };
  assign(0, 0);
  return best;
}

void expect_valid(const tofa::Packing& packing, const CommGraph& graph, int k) {
  const int tasks = graph.task_count();
  ASSERT_EQ(packing.pack_of.size(), static_cast<std::size_t>(tasks));
  EXPECT_EQ(packing.pack_count, (tasks + k - 1) / k);
  std::vector<int> load(packing.pack_count, 0);
  for (int pack : packing.pack_of) {
    ASSERT_GE(pack, 0);
    ASSERT_LT(pack, packing.pack_count);
    ++load[pack];
  }
  for (int count : load) {
    EXPECT_GE(count, 1);
    EXPECT_LE(count, k);
  }
  EXPECT_EQ(packing.mims, tofa::mims(graph, packing.pack_of));
}

TEST(MimsPacking, EqualsBruteForceOptimumOnRandomSmallGraphs) {
  std::mt19937 engine(20240611);
  for (int k : {2, 3, 4, 6}) {
    int improved_on_identity = 0;
    for (int trial = 0; trial < 40; ++trial) {
      std::uniform_int_distribution<int> size(k + 1, 12);
      const int tasks = size(engine);
      const double density = trial % 2 ? 0.3 : 0.7;
      const CommGraph graph = random_graph(tasks, density, engine);
      const tofa::Packing packing = tofa::mims_packing(graph, k);
      expect_valid(packing, graph, k);
      EXPECT_TRUE(packing.optimal);
      const double optimum = brute_force_mims(graph, k);
      ASSERT_EQ(packing.mims, optimum) << "k=" << k << " tasks=" << tasks << " trial=" << trial;
      std::vector<int> blocks(tasks);
      for (int t = 0; t < tasks; ++t) blocks[t] = t / k;
      if (tofa::mims(graph, blocks) > optimum) ++improved_on_identity;
    }
    // The cases are not trivial: block packing (tasks 0..k-1, k..2k-1, ...) is often worse.
    EXPECT_GT(improved_on_identity, 5) << "k=" << k;
  }
}

TEST(MimsPacking, FeasibilityTestRefusesAMergeThatWouldStrandPacks) {
  // k = 4, 8 tasks (2 packs). Triangles {0,1,2} and {3,4,5} weigh 10, the
  // pair {6,7} 9, and 2-6 weighs 1. After the triangles the packs are
  // 3,3,1,1; merging 6 and 7 would leave 3,3,2, which needs 3 bins of 4
  // (Algorithm 4), so it is refused: 6 and 7 end in different packs, one
  // with each triangle, and MIMS = 9 (the best possible: 6 and 7 cannot
  // share a pack). A size-only check would accept it and strand a pack.
  std::vector<CommEdge> edges = {{0, 1, 10, 1}, {1, 2, 10, 1}, {0, 2, 10, 1}, {3, 4, 10, 1},
                                 {4, 5, 10, 1}, {3, 5, 10, 1}, {6, 7, 9, 1},  {2, 6, 1, 1}};
  const CommGraph graph = CommGraph::from_directed_edges(8, edges);
  const tofa::Packing packing = tofa::mims_packing(graph, 4);
  expect_valid(packing, graph, 4);
  EXPECT_EQ(packing.mims, 9);
  EXPECT_NE(packing.pack_of[6], packing.pack_of[7]);
  EXPECT_EQ(packing.pack_of[0], packing.pack_of[2]);
  EXPECT_EQ(packing.pack_of[3], packing.pack_of[5]);
  EXPECT_NE(packing.pack_of[0], packing.pack_of[3]);
  // 2-6 (1 byte) came after 6-7 was refused and is accepted: 6 joins 0,1,2.
  EXPECT_EQ(packing.pack_of[6], packing.pack_of[0]);
}

TEST(MimsPacking, ChainForTwoCores) {
  // k = 2, chain 0-1 (10), 1-2 (9), 2-3 (8): {0,1} first, 1-2 would make a
  // pack of 3, then {2,3}. The cut edge is 1-2: MIMS = 9. Packs are
  // numbered by their lowest task.
  const CommGraph graph = CommGraph::from_directed_edges(4, {{0, 1, 10, 1}, {1, 2, 9, 1}, {2, 3, 8, 1}});
  const tofa::Packing packing = tofa::mims_packing(graph, 2);
  EXPECT_EQ(packing.pack_of, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(packing.mims, 9);
}

TEST(MimsPacking, TasksNotAMultipleOfKAndIsolatedTasks) {
  // 7 tasks, k = 4: 2 packs. Only 5-6 talks; everything else is best effort.
  const CommGraph graph = CommGraph::from_directed_edges(7, {{5, 6, 3, 1}});
  const tofa::Packing packing = tofa::mims_packing(graph, 4);
  expect_valid(packing, graph, 4);
  EXPECT_EQ(packing.mims, 0);
  EXPECT_EQ(packing.pack_of[5], packing.pack_of[6]);
  // k >= tasks: one pack, nothing crosses.
  EXPECT_EQ(tofa::mims_packing(graph, 8).pack_count, 1);
  // Empty graph.
  EXPECT_EQ(tofa::mims_packing(CommGraph::from_directed_edges(0, {}), 4).pack_count, 0);
}

TEST(MimsPacking, HeuristicForOtherKStillGivesValidPacks) {
  std::mt19937 engine(7);
  for (int k : {5, 8}) {
    const CommGraph graph = random_graph(40, 0.2, engine);
    const tofa::Packing packing = tofa::mims_packing(graph, k);
    expect_valid(packing, graph, k);
    EXPECT_FALSE(packing.optimal);
  }
}

TEST(MimsMetric, LargestEdgeBetweenGroupsAndPackGraph) {
  // Ring 0-1-2-3-0 with bytes 1, 2, 3, 4 on edges 0-1, 1-2, 2-3, 3-0.
  const CommGraph graph = CommGraph::from_directed_edges(
      4, {{0, 1, 1, 1}, {1, 2, 2, 1}, {2, 3, 3, 1}, {3, 0, 4, 1}});
  // Groups {0,3} and {1,2}: crossing edges 0-1 (1) and 2-3 (3) -> 3.
  EXPECT_EQ(tofa::mims(graph, {0, 1, 1, 0}), 3);
  EXPECT_EQ(tofa::mims(graph, {0, 0, 0, 0}), 0);
  tofa::Packing packing;
  packing.pack_count = 2;
  packing.pack_of = {0, 1, 1, 0};
  const CommGraph packs = tofa::pack_graph(graph, packing);
  ASSERT_EQ(packs.task_count(), 2);
  ASSERT_EQ(packs.edge_count(), 1u);
  EXPECT_EQ(packs.total_bytes(), 4);  // 1 + 3 between the packs
  try {
    tofa::mims(graph, {0, 1});
    FAIL() << "no exception";
  } catch (const tofa::Error& error) {
    EXPECT_STREQ(error.what(), "MIMS: 2 group entries, expected 4 (one per task)");
  }
  try {
    tofa::mims_packing(graph, 0);
    FAIL() << "no exception";
  } catch (const tofa::Error& error) {
    EXPECT_STREQ(error.what(), "pack size must be at least 1, got 0");
  }
}

}  // namespace
