// Per-node task limits ("t[1-2]:1-8,t5:3"): parsing, and the fit that keeps
// every node within them, as a Slurm allocation needs.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "capi/tofa.h"
#include "fixtures.hpp"
#include "map/mapper.hpp"
#include "map/task_limits.hpp"
#include "service/placement.hpp"

namespace {

using tofa::TaskLimits;
using tofa::CommGraph;
using tofa::Topology;
using tofa::service::ComputedPlacement;
using tofa::service::PlacementInput;
using tofa::service::parse_candidates;
using tofa_test::error_text;

/// The mini-cluster's shape: 4x2x2 torus, 8 cores per node, nodes t1..t16.
Topology mini_cluster() {
  Topology topology({4, 2, 2}, {true, true, true}, 8);
  std::vector<std::string> names;
  for (int i = 1; i <= topology.node_count(); ++i) names.push_back("t" + std::to_string(i));
  topology.set_node_names(names);
  return topology;
}

std::map<std::string, int> tasks_per_node(const ComputedPlacement& placement) {
  std::map<std::string, int> count;
  for (const std::string& node : placement.nodes) ++count[node];
  return count;
}

ComputedPlacement place(const Topology& topology, const CommGraph& graph,
                        const std::string& strategy, const std::string& candidates) {
  PlacementInput input;
  input.topology = &topology;
  input.graph = &graph;
  input.strategy = strategy;
  input.candidates = candidates;
  return compute_placement(input);
}

TEST(ParseCandidates, LimitsPerNode) {
  const Topology topology = mini_cluster();
  const auto parsed = parse_candidates(topology, "t[3-4]:1-8,t8:3");
  EXPECT_EQ(parsed.nodes, (std::vector<int>{2, 3, 7}));
  EXPECT_EQ(parsed.min_tasks, (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(parsed.max_tasks, (std::vector<int>{8, 8, 3}));
}

TEST(ParseCandidates, PlainListHasNoLimits) {
  const Topology topology = mini_cluster();
  const auto parsed = parse_candidates(topology, "t[3-4],t8,t3");
  EXPECT_EQ(parsed.nodes, (std::vector<int>{2, 3, 7}));
  EXPECT_TRUE(parsed.max_tasks.empty());
}

TEST(ParseCandidates, Errors) {
  const Topology topology = mini_cluster();
  EXPECT_EQ(error_text([&] { parse_candidates(topology, "t3:5,t4"); }),
            "candidate 't4': give :MAX or :MIN-MAX on every item or none");
  for (const char* bad : {"t3:0", "t3:x", "t3:99999999", "t3:4-2", "t3:-2", "t3:1-", "t3:"})
    EXPECT_EQ(error_text([&] { parse_candidates(topology, bad); }),
              "candidate '" + std::string(bad) +
                  "': expected NODES:MAX or NODES:MIN-MAX with 1 <= MAX, MIN <= MAX");
  EXPECT_EQ(error_text([&] { parse_candidates(topology, "t[3-4]:2,t4:1"); }),
            "candidate node t4 is listed twice");
  EXPECT_EQ(error_text([&] { parse_candidates(topology, "t99:2"); }),
            "candidate node t99 is not in the topology");
}

TEST(CandidateLimits, TheSameLimitsAsTheTextAndTheSameErrors) {
  using tofa::service::candidate_limits;
  using tofa::service::NamedCandidate;
  const Topology topology = mini_cluster();
  const auto listed = candidate_limits(topology, {{"t3", 1, 8}, {"t4", 1, 8}, {"t8", 0, 3}});
  const auto parsed = parse_candidates(topology, "t[3-4]:1-8,t8:3");
  EXPECT_EQ(listed.nodes, parsed.nodes);
  EXPECT_EQ(listed.min_tasks, parsed.min_tasks);
  EXPECT_EQ(listed.max_tasks, parsed.max_tasks);
  EXPECT_EQ(error_text([&] { candidate_limits(topology, {{"t3", 0, 2}, {"t3", 0, 1}}); }),
            "candidate node t3 is listed twice");
  EXPECT_EQ(error_text([&] { candidate_limits(topology, {{"t99", 0, 2}}); }),
            "candidate node t99 is not in the topology");
  for (const NamedCandidate& bad : {NamedCandidate{"t3", 0, 0}, NamedCandidate{"t3", 4, 2},
                                    NamedCandidate{"t3", -1, 2}})
    EXPECT_EQ(error_text([&] { candidate_limits(topology, {bad}); }),
              "candidate t3: expected 1 <= max tasks, min tasks <= max tasks, got " +
                  std::to_string(bad.min_tasks) + "-" + std::to_string(bad.max_tasks));
}

// Issue 11 (1): cons_tres granted 5 CPUs on t3, 8 on t4, 3 on t8; every
// strategy must keep within them and use all three nodes.
TEST(PlaceOnAllocation, EveryGeneralStrategyKeepsWithinTheGrantedCpus) {
  const Topology topology = mini_cluster();
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 1);
  for (const tofa::MapperInfo& info : tofa::mapper_table()) {
    if (!info.general) continue;
    SCOPED_TRACE(info.name);
    const auto count = tasks_per_node(place(topology, graph, info.name, "t3:1-5,t4:1-8,t8:1-3"));
    EXPECT_EQ(count, (std::map<std::string, int>{{"t3", 5}, {"t4", 8}, {"t8", 3}}));
  }
}

// Issue 11 (3): -N 12 -n 48 and --ntasks-per-node=4: every allocated node runs tasks.
TEST(PlaceOnAllocation, EveryAllocatedNodeGetsATask) {
  const Topology topology = mini_cluster();
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 3);
  for (const char* strategy : {"tofa", "tofa-compact", "greedy", "default-slurm", "anneal"}) {
    SCOPED_TRACE(strategy);
    const auto count = tasks_per_node(place(topology, graph, strategy, "t[1-12]:1-8"));
    EXPECT_EQ(count.size(), 12u);
    for (const auto& [node, tasks] : count) EXPECT_GE(tasks, 1) << node;
    const auto four = tasks_per_node(place(topology, graph, strategy, "t[1-12]:1-4"));
    for (const auto& [node, tasks] : four) EXPECT_EQ(tasks, 4) << node;
  }
}

// Node choice under contention: limits are the idle CPUs, no minimum.
TEST(PlaceOnAllocation, UpperLimitsOnlyLeaveNodesFree) {
  const Topology topology = mini_cluster();
  const CommGraph graph = tofa_test::stencil_graph(4, 2, 1);
  const auto count = tasks_per_node(place(topology, graph, "greedy", "t1:2,t2:8,t3:8,t4:3"));
  int total = 0;
  for (const auto& [node, tasks] : count) total += tasks;
  EXPECT_EQ(total, 8);
  EXPECT_LE(count.count("t1") ? count.at("t1") : 0, 2);
  EXPECT_LE(count.count("t4") ? count.at("t4") : 0, 3);
  EXPECT_LT(count.size(), 4u);  // greedy fills the fewest nodes it can
}

TEST(PlaceOnAllocation, Errors) {
  const Topology topology = mini_cluster();
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 1);
  EXPECT_EQ(error_text([&] { place(topology, graph, "tofa", "t[1-2]:4"); }),
            "16 tasks do not fit the 8 task slots of 2 nodes");
  const CommGraph small = tofa_test::ring_graph(3);
  EXPECT_EQ(error_text([&] { place(topology, small, "tofa", "t[1-4]:1-8"); }),
            "3 tasks cannot give the 4 tasks the 4 nodes need at least");
  PlacementInput input;
  input.topology = &topology;
  input.graph = &graph;
  input.strategy = "greedy";
  input.candidates = "t[1-2]:8";
  input.slots_per_node = 8;
  EXPECT_EQ(error_text([&] { compute_placement(input); }),
            "give slots per node or per-node task limits (NODES:MAX), not both");
}

TEST(FitTaskLimits, LeavesAFittingPlacementAlone) {
  const Topology topology = mini_cluster();
  const CommGraph graph = tofa_test::ring_graph(6);
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  tofa::Placement placement{0, 0, 1, 1, 2, 2};
  const TaskLimits limits{{0, 1, 2}, {1, 1, 1}, {2, 2, 2}};
  fit_task_limits(request, limits, placement);
  EXPECT_EQ(placement, (tofa::Placement{0, 0, 1, 1, 2, 2}));
}

// An empty node takes the task whose move adds the fewest hop-bytes, the
// nearest at equal cost: ring of 6 tasks on nodes 0 and 1 of a line, every
// move to node 2 adds 2, so a task of node 1 (1 hop away) goes.
TEST(FitTaskLimits, EmptyNodeTakesTheCheapestTask) {
  Topology topology({8}, {false}, 8);
  const CommGraph graph = tofa_test::ring_graph(6);
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  tofa::Placement placement{0, 0, 0, 1, 1, 1};
  const TaskLimits limits{{0, 1, 2}, {1, 1, 1}, {8, 8, 8}};
  fit_task_limits(request, limits, placement);
  ASSERT_NO_THROW(check_limits_met(request, limits, placement));
  int on_two = 0, from_one = 0;
  for (int task = 0; task < 6; ++task) {
    on_two += placement[task] == 2;
    from_one += placement[task] == 2 && task >= 3;
  }
  EXPECT_EQ(on_two, 1);
  EXPECT_EQ(from_one, 1);
}

// srun -N: the nodes holding most tasks stay; a small node gives way to a
// larger one while the kept ones cannot hold the job.
TEST(KeepNodeCount, MostUsedNodesThatHoldTheJob) {
  const TaskLimits limits{{0, 1, 2, 3}, {0, 0, 0, 0}, {3, 3, 3, 8}};
  const TaskLimits two = tofa::keep_node_count(limits, {0, 0, 0, 1, 1, 1, 2, 2}, 2, 6);
  EXPECT_EQ(two.nodes, (std::vector<int>{0, 1}));
  EXPECT_EQ(two.min_tasks, (std::vector<int>{1, 1}));
  EXPECT_EQ(two.max_tasks, (std::vector<int>{3, 3}));
  // 8 tasks: nodes 0 and 1 hold 6, so the smaller of them yields to node 3.
  EXPECT_EQ(tofa::keep_node_count(limits, {0, 0, 0, 1, 1, 1, 2, 2}, 2, 8).nodes,
            (std::vector<int>{1, 3}));
  EXPECT_EQ(error_text([&] { tofa::keep_node_count(limits, {}, 2, 12); }),
            "12 tasks do not fit on any 2 of the 4 nodes");
  EXPECT_EQ(error_text([&] { tofa::keep_node_count(limits, {}, 5, 8); }),
            "the job asks for 5 nodes, 4 can take its tasks");
  EXPECT_TRUE(tofa::node_count_holds(limits, 11, 2, 2));
  EXPECT_FALSE(tofa::node_count_holds(limits, 12, 2, 2));
  EXPECT_TRUE(tofa::node_count_holds(limits, 12, 2, 0));
  EXPECT_FALSE(tofa::node_count_holds(limits, 3, 4, 0));
}

// The job stream's failure: srun -n 16 -N 2 on free CPUs spread over more
// nodes than two; the placement spans exactly -N nodes, or -N MIN-MAX.
TEST(PlaceOnAllocation, SpansTheNodeCountAskedFor) {
  const Topology topology = mini_cluster();
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 1);
  PlacementInput input;
  input.topology = &topology;
  input.graph = &graph;
  input.candidates = "t1:5,t2:4,t3:8,t4:8,t5:8";
  for (const tofa::MapperInfo& info : tofa::mapper_table()) {
    if (!info.general) continue;
    SCOPED_TRACE(info.name);
    input.strategy = info.name;
    input.min_nodes = input.max_nodes = 2;
    const auto two = tasks_per_node(compute_placement(input));
    EXPECT_EQ(two.size(), 2u);
    for (const auto& [node, tasks] : two) EXPECT_EQ(tasks, 8) << node;
    input.min_nodes = 4;
    input.max_nodes = 0;
    EXPECT_GE(tasks_per_node(compute_placement(input)).size(), 4u);
  }
  input.candidates = "t1:5,t2:4,t3:8";
  input.min_nodes = input.max_nodes = 2;
  EXPECT_EQ(error_text([&] { compute_placement(input); }),
            "16 tasks do not fit on any 2 of the 3 nodes");
  input.candidates = "t[1-3]";
  EXPECT_EQ(error_text([&] { compute_placement(input); }),
            "a node count needs per-node task limits (NODES:MAX)");
}

TEST(ParseParameters, KeysValuesAndErrors) {
  using tofa::service::parse_parameters;
  EXPECT_TRUE(parse_parameters("").empty());
  const auto parsed = parse_parameters("stencil=4x4x3;attempts=2");
  EXPECT_EQ(parsed, (std::map<std::string, std::string>{{"attempts", "2"}, {"stencil", "4x4x3"}}));
  EXPECT_EQ(error_text([] { parse_parameters("stencil"); }),
            "--tofa-param 'stencil': expected KEY=VALUE, KEY of letters, digits, '-' and '_'");
  EXPECT_EQ(error_text([] { parse_parameters("a b=1"); }),
            "--tofa-param 'a b=1': expected KEY=VALUE, KEY of letters, digits, '-' and '_'");
  EXPECT_EQ(error_text([] { parse_parameters("a="); }),
            "--tofa-param 'a=': VALUE must be 1 to 256 printable characters without blanks");
  EXPECT_EQ(error_text([] { parse_parameters("a=1;a=2"); }), "--tofa-param 'a=2': KEY given twice");
  std::string many;
  for (int i = 0; i < 17; ++i) many += (i ? ";k" : "k") + std::to_string(i) + "=1";
  EXPECT_EQ(error_text([&] { parse_parameters(many); }), "--tofa-param 'k16=1': more than 16 parameters");
}

}  // namespace

// The scheduler's limits (issue 38, item 6): -N 12 -n 48 on a busy cluster
// where only 11 nodes have 4 free CPUs still gets limits that hold the job.
TEST(SpreadTaskLimits, TheEvenShareWhenEnoughNodesHoldIt) {
  // 12 nodes hold 4 (the even share of 48 on 12): the rest are left out.
  std::vector<unsigned> room(12, 6);
  room.push_back(3);
  room.push_back(2);
  const std::vector<unsigned> limits = tofa::spread_task_limits(room, 48, 12);
  EXPECT_EQ(limits, (std::vector<unsigned>{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0}));
}

TEST(SpreadTaskLimits, TheShareIsRaisedUntilTheBusiestClusterHoldsTheJob) {
  // 11 nodes hold 4 or more, the others 3: at 4 each the best 12 hold 47.
  const std::vector<unsigned> room{8, 8, 8, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3};
  const std::vector<unsigned> limits = tofa::spread_task_limits(room, 48, 12);
  long long best12 = 0;
  std::vector<unsigned> sorted = limits;
  std::sort(sorted.rbegin(), sorted.rend());
  for (int i = 0; i < 12; ++i) best12 += sorted[i];
  EXPECT_GE(best12, 48);
  EXPECT_EQ(*std::max_element(limits.begin(), limits.end()), 5u) << "the smallest cap that holds it";
  EXPECT_EQ(limits[11], 3u) << "nodes below the cap keep what they hold";
}

TEST(SpreadTaskLimits, NoCapWhenNothingHoldsTheJobAndNoneForOneNode) {
  const std::vector<unsigned> room{2, 2, 2};
  EXPECT_EQ(tofa::spread_task_limits(room, 48, 3), room);
  EXPECT_EQ(tofa::spread_task_limits({8, 1, 0}, 4, 1), (std::vector<unsigned>{8, 1, 0}));
}

TEST(SpreadTaskLimits, TheCEntryPointWritesTheLimitsInPlace) {
  unsigned limits[] = {8, 8, 8, 4, 4, 4, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3};
  ASSERT_EQ(tofa_spread_task_limits(limits, 16, 48, 12), TOFA_OK);
  EXPECT_EQ(limits[0], 5u);
  EXPECT_EQ(tofa_spread_task_limits(nullptr, 0, 48, 12), TOFA_OK);
}

// What the scheduler shims ask (through the C API) before they list candidates.
TEST(TaskLimit, CpusPerTaskTasksPerNodeAndOvercommit) {
  EXPECT_EQ(tofa_task_limit(8, 0, 0, 0), 8u);  // -c not given: a task per CPU
  EXPECT_EQ(tofa_task_limit(8, 3, 0, 0), 2u);
  EXPECT_EQ(tofa_task_limit(2, 3, 0, 0), 0u);  // too few CPUs for one task
  EXPECT_EQ(tofa_task_limit(8, 1, 5, 0), 5u);  // --ntasks-per-node
  EXPECT_EQ(tofa_task_limit(2, 4, 0, 1), static_cast<unsigned>(TOFA_MAX_TASKS_PER_NODE));
  EXPECT_EQ(tofa_task_limit(2, 4, 6, 1), 6u);
  EXPECT_EQ(tofa_task_limit(1u << 20, 1, 0, 0), static_cast<unsigned>(TOFA_MAX_TASKS_PER_NODE));
}

TEST(NodeBounds, TasksPerNodeFixesTheNodeCount) {
  unsigned min = 1, max = 0;
  tofa_node_bounds(10, 4, &min, &max);  // ceil(10 / 4)
  EXPECT_EQ(min, 3u);
  EXPECT_EQ(max, 3u);
  min = 5, max = 8;  // -N 5-8 asks for more: kept
  tofa_node_bounds(10, 4, &min, &max);
  EXPECT_EQ(min, 5u);
  EXPECT_EQ(max, 5u);
  min = 2, max = 6;  // without --ntasks-per-node: Slurm's bounds
  tofa_node_bounds(10, 0, &min, &max);
  EXPECT_EQ(min, 2u);
  EXPECT_EQ(max, 6u);
  tofa_node_bounds(10, 4, nullptr, &max);  // ignored, no crash
}
