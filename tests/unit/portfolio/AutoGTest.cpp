// The auto strategy and its objective (Equation 1 along the routes).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "faults/faults.hpp"
#include "fixtures.hpp"
#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "map/portfolio/candidate_window.hpp"
#include "map/portfolio/strategies.hpp"
#include "map/portfolio/translate_clear.hpp"
#include "metrics/metrics.hpp"

namespace {

using tofa::CommGraph;
using tofa::FaultCost;
using tofa::MappingRequest;
using tofa::Placement;
using tofa::Topology;

TEST(FaultWeightedHopBytes, RoutesThroughAFaultyNodeCostWhatEquationOneSays) {
  // Ring of 6, node 0 faulty: tasks on 1 and 5 exchange 10 bytes in all;
  // R(1,5) = 1-0-5 and R(5,1) = 5-0-1 each cost 101 + 101.
  const Topology topology = Topology::from_spec("torus:6");
  const CommGraph graph = CommGraph::from_directed_edges(2, {{0, 1, 10, 1}});
  std::vector<double> outage(6, 0.0);
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_hop_bytes(topology, graph, {1, 5}, outage, FaultCost{}),
                   20);  // hop-bytes: 10 bytes x 2 hops
  outage[0] = 0.01;
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_hop_bytes(topology, graph, {1, 5}, outage, FaultCost{}),
                   2020);
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_hop_bytes(topology, graph, {1, 2}, outage, FaultCost{}),
                   10);
}

TEST(FaultWeightedHopBytes, IsCTimesHopBytesWithoutPenalisedLinks) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa_test::ring_graph(20);
  std::mt19937 engine(5);
  Placement placement(20);
  for (int& node : placement) node = static_cast<int>(engine() % 64);
  const tofa::PlacementMetrics metrics = tofa::evaluate_placement(graph, topology, placement);
  const double hop_bytes = metrics.hop_bytes;
  EXPECT_NEAR(tofa::fault_weighted_hop_bytes(topology, graph, placement,
                                             std::vector<double>(64, 0.0), FaultCost{}),
              hop_bytes, 1e-9 * hop_bytes);
  // c = 2.5: every link costs c, with no faulty node or with a zero penalty.
  FaultCost cost;
  cost.link_cost = 2.5;
  std::vector<double> outage(64, 0.0);
  EXPECT_NEAR(tofa::fault_weighted_hop_bytes(topology, graph, placement, outage, cost),
              2.5 * hop_bytes, 1e-9 * hop_bytes);
  for (int task = 0; task < 20; task += 4) outage[placement[task]] = 0.1;
  EXPECT_GT(tofa::fault_weighted_hop_bytes(topology, graph, placement, outage, cost),
            2.5 * hop_bytes * 1.5);
  cost.penalty = 0;
  EXPECT_NEAR(tofa::fault_weighted_hop_bytes(topology, graph, placement, outage, cost),
              2.5 * hop_bytes, 1e-9 * hop_bytes);
}


/// auto's order: placements with P(abort) = 0 and an objective not above
/// Slurm's block layout's first, then the lower objective.
struct Ranked {
  bool safe;
  double cost;
};

Ranked ranked(const MappingRequest& request, const Placement& placement, double block_cost) {
  const double cost = tofa::fault_weighted_hop_bytes(*request.topology, *request.graph, placement,
                                                     request.outage, request.fault_cost);
  const double abort = tofa::expected_abort_probability(*request.topology, *request.graph,
                                                        placement, request.outage);
  return {abort == 0 && cost <= block_cost, cost};
}

TEST(Auto, NeverWorseThanAnyStrategyItTriesOnHundredsOfRandomCases) {
  std::mt19937 engine(12);
  const std::vector<std::string> tried{"default-slurm", "greedy", "tofa", "tofa-compact"};
  for (int round = 0; round < 200; ++round) {
    const Topology topology =
        Topology::from_spec(round % 2 ? "torus:4x4x4" : "torus:4x4x2:cores=4");
    const int nodes = topology.node_count();
    MappingRequest request;
    request.topology = &topology;
    request.seed = round;
    for (int node = 0; node < nodes; ++node)
      if (engine() % 3) request.candidate_nodes.push_back(node);
    const int slots = topology.cores_per_node();
    const int capacity = static_cast<int>(request.candidate_nodes.size()) * slots;
    if (capacity < 2) continue;
    const CommGraph graph = tofa_test::random_sparse_graph(
        2 + static_cast<int>(engine() % (capacity - 1)), static_cast<unsigned>(engine()));
    request.graph = &graph;
    request.outage.assign(nodes, 0.0);
    for (int k = 0; k < 4; ++k) request.outage[engine() % nodes] = 0.02;

    const double block_cost =
        ranked(request, tofa::make_mapper("default-slurm")->map(request), 0).cost;
    const Ranked chosen = ranked(request, tofa::make_mapper("auto")->map(request), block_cost);
    EXPECT_LE(chosen.cost, block_cost) << "round " << round;
    std::vector<std::string> strategies = tried;
    if (slots > 1) strategies.push_back("tofa-packed");
    for (const std::string& name : strategies) {
      const Ranked other = ranked(request, tofa::make_mapper(name)->map(request), block_cost);
      EXPECT_GE(chosen.safe, other.safe) << "round " << round << ": auto against " << name;
      if (chosen.safe == other.safe) {
        EXPECT_LE(chosen.cost, other.cost) << "round " << round << ": auto against " << name;
      }
    }
  }
}

// Equation 1 weights a route through a failing node by the bytes on it, so
// the lowest objective can send a light edge through one. When a
// placement that crosses no failing node and costs no more than Slurm's
// block layout exists, auto returns one of those. The cases are small
// enough to try every placement: the first seeds where the lowest
// objective crosses a failing node (a busy one, not a candidate) but such
// a placement exists.
TEST(Auto, PrefersNoFailingNodeOnAnyRouteWhenThatIsNotWorseThanSlurm) {
  const Topology topology = Topology::from_spec("torus:4x3");
  int cases = 0;
  for (unsigned seed = 0; seed < 2000 && cases < 3; ++seed) {
    std::mt19937 engine(seed);
    MappingRequest request;
    request.topology = &topology;
    request.outage.assign(12, 0.0);
    const int failing = static_cast<int>(engine() % 12);
    request.outage[failing] = 0.02;
    for (int node = 0; node < 12; ++node)
      if (engine() % 4 && node != failing) request.candidate_nodes.push_back(node);
    std::vector<tofa::CommEdge> edges;
    for (int a = 0; a < 5; ++a)
      for (int b = a + 1; b < 5; ++b)
        if (engine() % 2) edges.push_back({a, b, engine() % 3 ? 1000.0 : 1.0, 1});
    const CommGraph graph = CommGraph::from_directed_edges(5, edges);
    request.graph = &graph;
    const std::vector<int> nodes = tofa::effective_candidates(request);
    if (nodes.size() < 5 || nodes.size() > 7) continue;

    const double block_cost =
        ranked(request, tofa::make_mapper("default-slurm")->map(request), 0).cost;
    // Every placement of the 5 tasks on distinct candidates.
    Ranked lowest{false, std::numeric_limits<double>::infinity()};
    bool safe_exists = false;
    Placement placement(5);
    std::vector<char> used(nodes.size(), 0);
    std::function<void(int)> place = [&](int task) {
      if (task == 5) {
        const Ranked r = ranked(request, placement, block_cost);
        if (r.cost < lowest.cost) lowest = r;
        safe_exists = safe_exists || r.safe;
        return;
      }
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (used[i]) continue;
        used[i] = 1;
        placement[task] = nodes[i];
        place(task + 1);
        used[i] = 0;
      }
    };
    place(0);
    if (lowest.safe || !safe_exists) continue;
    ++cases;
    const Ranked chosen = ranked(request, tofa::make_mapper("auto")->map(request), block_cost);
    EXPECT_TRUE(chosen.safe) << "seed " << seed;
    EXPECT_LE(chosen.cost, block_cost) << "seed " << seed;
  }
  EXPECT_EQ(cases, 3);
}

// A budget too small for any search still gives a valid placement: the best
// of the heuristics auto always runs (Slurm's layout among them), never an
// error; a bad budget is refused with the value named.
TEST(Auto, ABudgetTooSmallForAnySearchGivesTheBestHeuristic) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = tofa_test::random_sparse_graph(85, 3);
  MappingRequest request;
  request.topology = &topology;
  request.graph = &graph;
  request.outage.assign(512, 0.0);
  for (int node = 0; node < 512; node += 37) request.outage[node] = 0.02;
  const auto cost = [&](const Placement& p) {
    return tofa::fault_weighted_hop_bytes(topology, graph, p, request.outage, request.fault_cost);
  };
  // The heuristics auto always runs, ranked as auto ranks: a placement clear
  // of failing nodes and not above Slurm's layout first, then the lower cost.
  // (greedy-routes runs only where its predicted time fits the budget; 512
  // candidates are too few for a window.)
  ASSERT_TRUE(tofa::candidate_window(request).empty());
  const double block_cost = cost(tofa::make_mapper("default-slurm")->map(request));
  Ranked best_heuristic{false, std::numeric_limits<double>::infinity()};
  for (const char* name : {"default-slurm", "embed", "greedy"}) {
    const Ranked r = ranked(request, tofa::make_mapper(name)->map(request), block_cost);
    if (r.safe > best_heuristic.safe || (r.safe == best_heuristic.safe && r.cost < best_heuristic.cost))
      best_heuristic = r;
  }
  request.parameters["budget"] = "1e-9";
  const Placement tiny = tofa::make_mapper("auto")->map(request);
  EXPECT_NO_THROW(tofa::check_placement(request, tiny));
  EXPECT_DOUBLE_EQ(cost(tiny), best_heuristic.cost);
  request.parameters.erase("budget");
  const Ranked unbounded = ranked(request, tofa::make_mapper("auto")->map(request), block_cost);
  EXPECT_GE(unbounded.safe, best_heuristic.safe);
  if (unbounded.safe == best_heuristic.safe) {
    EXPECT_LE(unbounded.cost, best_heuristic.cost);
  }
  request.parameters["budget"] = "-1";
  EXPECT_EQ(tofa_test::error_text([&] { tofa::make_mapper("auto")->map(request); }),
            "auto: parameter budget: expected a positive number of seconds, found '-1'");
}

// Above 128 tasks auto does not anneal: it improves the best placement of
// the other strategies by local descent, so it beats every one of them on a
// shuffled 3D grid graph on a 6x6x6 torus (Scotch leaves swaps to gain).
TEST(Auto, LargeJobsGetLocalDescentFromTheBestPlacement) {
  const Topology topology = Topology::from_spec("torus:6x6x6");
  const CommGraph graph = tofa::with_shuffled_ids(tofa::stencil_graph({6, 6, 6}), 3);
  MappingRequest request;
  request.topology = &topology;
  request.graph = &graph;
  request.outage.assign(216, 0.0);
  const auto cost = [&](const Placement& p) {
    return tofa::fault_weighted_hop_bytes(topology, graph, p, request.outage, request.fault_cost);
  };
  double best_other = std::numeric_limits<double>::infinity();
  for (const char* name : {"default-slurm", "greedy", "tofa", "tofa-compact"})
    best_other = std::min(best_other, cost(tofa::make_mapper(name)->map(request)));
  const Placement chosen = tofa::make_mapper("auto")->map(request);
  EXPECT_NO_THROW(tofa::check_placement(request, chosen));
  EXPECT_LT(cost(chosen), best_other);
}

// PlacementBudget is the budget of a 128-task job and grows as tasks^0.8.
TEST(Auto, PlacementBudgetScalesWithTheJob) {
  EXPECT_DOUBLE_EQ(tofa::scaled_placement_budget(10, 128), 0.010);
  EXPECT_NEAR(tofa::scaled_placement_budget(10, 85), 0.0072, 0.0001);
  EXPECT_DOUBLE_EQ(tofa::scaled_placement_budget(10, 16), 0.005);  // half, not 1.9 ms
  EXPECT_NEAR(tofa::scaled_placement_budget(10, 65536), 1.47, 0.01);
  EXPECT_GT(tofa::scaled_placement_budget(10, 1), 0.0);
  EXPECT_LT(tofa::scaled_placement_budget(10, 1024), tofa::scaled_placement_budget(10, 2048));
}

// A task that exchanges nothing costs 0 on any node by Equation 1: the tie
// goes to the placement least likely to abort (untrusted_input (1): a
// 1-task job ran on the one node with p = 0.02).
TEST(Auto, TiesGoToTheLowerAbortProbability) {
  const Topology topology = Topology::from_spec("torus:2x2x2");
  const CommGraph lone = CommGraph::from_directed_edges(1, {});
  MappingRequest request;
  request.topology = &topology;
  request.graph = &lone;
  request.outage.assign(8, 0.0);
  request.outage[0] = 0.02;
  const Placement placement = tofa::make_mapper("auto")->map(request);
  ASSERT_EQ(placement.size(), 1u);
  EXPECT_NE(placement[0], 0);
}

TEST(Auto, SaysWhyWhenNothingFits) {
  const Topology topology = Topology::from_spec("torus:4");
  const CommGraph graph = tofa_test::ring_graph(8);
  MappingRequest request;
  request.topology = &topology;
  request.graph = &graph;
  EXPECT_NE(tofa_test::error_text([&] { tofa::make_mapper("auto")->map(request); }),
            "<no exception>");
}

}  // namespace

// On a machine far larger than the job every search runs on the window:
// auto's nodes are the window's, or Slurm's layout's (whole, or moved whole
// off the failing nodes), or those of the scheduler's node choice
// (`compact`, on every candidate: linear in them), and it never ranks below
// Slurm's layout.
TEST(Auto, OnALargeMachineTheSearchesStayInTheWindow) {
  const Topology topology = Topology::from_spec("torus:32x32x16");
  const CommGraph graph = tofa_test::random_sparse_graph(64, 3);
  MappingRequest request = tofa_test::request_on(topology, graph);
  for (int node = 0; node < topology.node_count(); node += 3) request.candidate_nodes.push_back(node);
  for (int node = 0; node < topology.node_count(); node += 97) request.outage[node] = 0.02;
  const std::vector<int> window = tofa::candidate_window(request);
  ASSERT_EQ(window.size(), 256u);
  const Placement block = tofa::make_mapper("default-slurm")->map(request);
  const double block_cost = tofa::fault_weighted_hop_bytes(topology, graph, block, request.outage,
                                                           request.fault_cost);
  request.parameters["budget"] = "0.005";
  const Placement placement = tofa::make_mapper("auto")->map(request);
  tofa::check_placement(request, placement);
  // A search from a placement keeps its nodes as candidates beside the
  // window's (improve_from), so under load (a sanitizer), when it is cut
  // short, some tasks may still sit on its start's nodes and others on the
  // window.
  tofa::RouteFaults faults(topology, request.outage.values());
  std::set<int> starts;
  for (const Placement& start : {tofa::make_mapper("compact")->map(request), block,
                                 tofa::translate_clear(request, block, faults)})
    starts.insert(start.begin(), start.end());
  for (int node : placement)
    EXPECT_TRUE(std::binary_search(window.begin(), window.end(), node) || starts.count(node) > 0)
        << "node " << node << " is outside the window, compact's box and Slurm's layout whole or moved";
  const Ranked chosen = ranked(request, placement, block_cost);
  const Ranked slurm = ranked(request, block, block_cost);
  EXPECT_TRUE(chosen.safe >= slurm.safe);
  if (chosen.safe == slurm.safe) {
    EXPECT_LE(chosen.cost, block_cost);
  }
}
