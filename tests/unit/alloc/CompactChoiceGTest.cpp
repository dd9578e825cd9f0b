// The scheduler's node choice (common/alloc/compact_choice.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "alloc/compact_choice.hpp"
#include "tofa/error.hpp"
#include "tofa/topology.hpp"

namespace {

using tofa::Placement;
using tofa::TaskLimits;
using tofa::Topology;

TaskLimits every_node(const Topology& torus, int max_tasks) {
  TaskLimits limits;
  for (int node = 0; node < torus.node_count(); ++node) limits.nodes.push_back(node);
  limits.max_tasks.assign(limits.nodes.size(), max_tasks);
  return limits;
}

std::map<int, int> tasks_per_node(const Placement& placement) {
  std::map<int, int> count;
  for (int node : placement) ++count[node];
  return count;
}

int neighbours_within(const Topology& torus, int node, const std::map<int, int>& nodes) {
  int count = 0;
  for (int other : torus.neighbours(node)) count += nodes.count(other);
  return count;
}

// On an idle 8x8x8 torus, 8 single-slot tasks get a 2x2x2 cube (every node
// beside 3 others) and 4 a square (beside 2): a breadth-first ball of 4 is
// a star, where two pairs cannot both be neighbours.
TEST(CompactChoiceTest, AnIdleTorusGivesACubeAndASquare) {
  const Topology torus({8, 8, 8}, {true, true, true});
  for (const auto& [tasks, beside] : std::map<int, int>{{8, 3}, {4, 2}}) {
    const std::map<int, int> nodes =
        tasks_per_node(tofa::compact_choice(torus, every_node(torus, 1), {}, tasks, 0, 0));
    ASSERT_EQ(static_cast<int>(nodes.size()), tasks);
    for (const auto& [node, count] : nodes) EXPECT_EQ(neighbours_within(torus, node, nodes), beside);
  }
}

// Tasks in blocks: the first node's tasks first, each node at most its limit.
TEST(CompactChoiceTest, TasksComeInBlocksWithinTheLimits) {
  const Topology torus({4, 4, 4}, {true, true, true});
  const Placement placement = tofa::compact_choice(torus, every_node(torus, 4), {}, 10, 0, 0);
  ASSERT_EQ(placement.size(), 10u);
  for (const auto& [node, tasks] : tasks_per_node(placement)) EXPECT_LE(tasks, 4);
  EXPECT_EQ(tasks_per_node(placement).size(), 3u);
  for (std::size_t i = 1; i < placement.size(); ++i) {
    if (placement[i] != placement[i - 1]) {
      EXPECT_EQ(std::count(placement.begin() + i, placement.end(), placement[i - 1]), 0);
    }
  }
}

// Nodes that may fail are left out while the others hold the job, and the
// box sits where it passes none of them.
TEST(CompactChoiceTest, NodesThatMayFailAreAvoided) {
  const Topology torus({8, 8, 1}, {true, true, false});
  std::vector<double> outage(torus.node_count(), 0.0);
  for (int x = 0; x < 8; ++x) outage[torus.node_at({x, 0, 0})] = 0.3;  // one row fails
  const Placement placement = tofa::compact_choice(torus, every_node(torus, 1), outage, 9, 0, 0);
  for (int node : placement) EXPECT_EQ(outage[node], 0.0) << torus.node_name(node);
}

// -N: at least min_nodes nodes, one task each first.
TEST(CompactChoiceTest, MinNodesSpreadsTheTasks) {
  const Topology torus({4, 4, 4}, {true, true, true});
  const Placement placement = tofa::compact_choice(torus, every_node(torus, 3), {}, 9, 4, 4);
  EXPECT_EQ(tasks_per_node(placement).size(), 4u);
}

// An allocation (every node at least one task): every listed node is used.
TEST(CompactChoiceTest, AnAllocationUsesEveryNode) {
  const Topology torus({8, 8, 8}, {true, true, true});
  TaskLimits allocation;
  allocation.nodes = {3, 100, 200, 300};
  allocation.min_tasks = {1, 1, 1, 1};
  allocation.max_tasks = {4, 1, 1, 2};
  const Placement placement = tofa::compact_choice(torus, allocation, {}, 8, 0, 0);
  const std::map<int, int> count = tasks_per_node(placement);
  EXPECT_EQ(count, (std::map<int, int>{{3, 4}, {100, 1}, {200, 1}, {300, 2}}));
}

// -N 3 -n 12 where the nodes nearest the corner have room for 2: the 3
// roomiest nodes of the box, not 6 small ones.
TEST(CompactChoiceTest, MaxNodesPrefersTheRoomiestNodes) {
  const Topology torus({4, 4, 1}, {true, true, false});
  TaskLimits limits = every_node(torus, 2);
  for (int node : {5, 10, 15}) limits.max_tasks[node] = 4;
  const std::map<int, int> count =
      tasks_per_node(tofa::compact_choice(torus, limits, {}, 12, 3, 3));
  EXPECT_EQ(count, (std::map<int, int>{{5, 4}, {10, 4}, {15, 4}}));
}

TEST(CompactChoiceTest, TooLittleRoomOrTooFewNodesAreErrors) {
  const Topology torus({4, 4, 1}, {true, true, false});
  EXPECT_THROW(tofa::compact_choice(torus, every_node(torus, 1), {}, 17, 0, 0), tofa::Error);
  EXPECT_THROW(tofa::compact_choice(torus, every_node(torus, 1), {}, 8, 0, 4), tofa::Error);
  EXPECT_THROW(tofa::compact_choice(torus, every_node(torus, 4), {}, 4, 17, 0), tofa::Error);
}

}  // namespace
