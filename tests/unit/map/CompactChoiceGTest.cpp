// The scheduler's node choice (common/map/compact/compact_choice.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/error.hpp"
#include "faults/faults.hpp"
#include "fixtures.hpp"
#include "map/compact/compact_choice.hpp"
#include "map/mapper.hpp"
#include "topology/topology.hpp"

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

// Its node tables are the thread's, kept between calls: neither a refused
// request nor one on other nodes changes the next answer.
TEST(CompactChoiceTest, EarlierCallsLeaveNothingBehind) {
  const Topology torus({8, 8, 8}, {true, true, true});
  std::vector<double> outage(torus.node_count(), 0.0);
  for (int x = 0; x < 8; ++x) outage[torus.node_at({x, 3, 3})] = 0.1;
  TaskLimits limits = every_node(torus, 2);
  const Placement fresh = tofa::compact_choice(torus, limits, outage, 20, 0, 0);
  EXPECT_THROW(tofa::compact_choice(torus, limits, outage, 2000, 0, 0), tofa::Error);
  TaskLimits few;
  few.nodes = {5, 77, 300};
  few.max_tasks = {1, 1, 1};
  few.min_tasks = {1, 1, 1};
  EXPECT_EQ(tofa::compact_choice(torus, few, outage, 3, 0, 0).size(), 3u);
  EXPECT_EQ(tofa::compact_choice(torus, limits, outage, 20, 0, 0), fresh);
}

}  // namespace

namespace {

// The registered strategy `compact` is the node choice on the request's
// candidates. With a plane of failing nodes (x = 0) through an idle 8x8x8
// torus, 64 tasks get a 4x4x4 box beside it: every route between the
// box's nodes stays inside the box, so the job cannot abort (the
// placements auto builds on that box rely on it).
TEST(CompactStrategyTest, ABoxWithoutFailingNodesKeepsEveryRouteClear) {
  const Topology torus = Topology::from_spec("torus:8x8x8");
  const tofa::CommGraph graph = tofa_test::random_sparse_graph(64, 3);
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &torus;
  request.outage.assign(torus.node_count(), 0.0);
  for (int node = 0; node < torus.node_count(); ++node)
    if (torus.coords(node)[0] == 0) request.outage[node] = 0.02;
  const Placement placement = tofa::make_mapper("compact")->map(request);
  EXPECT_EQ(placement, tofa::compact_choice(torus, every_node(torus, 1), request.outage, 64, 0, 0));
  EXPECT_EQ(tasks_per_node(placement).size(), 64u);
  for (int dimension = 0; dimension < 3; ++dimension) {
    std::set<int> coordinates;
    for (int node : placement) coordinates.insert(torus.coords(node)[dimension]);
    EXPECT_EQ(coordinates.size(), 4u) << "dimension " << dimension;
  }
  EXPECT_EQ(tofa::expected_abort_probability(torus, graph, placement, request.outage), 0);
}

}  // namespace
