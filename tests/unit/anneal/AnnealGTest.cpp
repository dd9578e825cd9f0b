// The anneal strategy (seed: Bhanot et al.) through its factory: the seed's
// Cubic problems reach F = F_min, Equation 3's load bounds hold, seeds
// reproduce placements, parameters are checked with exact messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "faults/faults.hpp"
#include "fixtures.hpp"
#include "graph/generators.hpp"
#include "map/anneal/cubic_problems.hpp"
#include "map/anneal/energy.hpp"
#include "map/anneal/run.hpp"
#include "map/anneal/strategies.hpp"
#include "map/mapper.hpp"
#include "metrics/metrics.hpp"

namespace {

using tofa::CommGraph;
using tofa::MappingRequest;
using tofa::Placement;
using tofa::Topology;

using tofa_test::error_text;

MappingRequest request_for(const CommGraph& graph, const Topology& topology, int slots,
                           std::map<std::string, std::string> parameters = {}) {
  MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.slots_per_node = slots;
  request.parameters = std::move(parameters);
  request.parameters.emplace("progress", "no");
  return request;
}

std::vector<int> loads(const Placement& placement, int node_count) {
  std::vector<int> count(node_count, 0);
  for (int node : placement) ++count.at(node);
  return count;
}

// The grow start (the seed's refined heuristic with one step of
// look-ahead, grown on all edges and on the heaviest ones alone) lays Cubic
// 1, Cubic 2 and a 16^3 stencil out exactly, whatever the task ids: F =
// F_min with MPI-ordered and shuffled ids, and annealing from it keeps
// F_min. (Cubic 2's full packets alone form Cubic 1; its half packets then
// land two hops away in straight lines.)
TEST(AnnealCubic, GrowStartLaysLatticesOutExactlyWhateverTheIds) {
  struct Case {
    tofa::CommGraph graph;
    Topology torus;
    double bound;
  };
  const Topology torus8 = Topology::from_spec("torus:8x8x8");
  const CommGraph cubic1 = tofa::anneal::cubic_graph({8, 8, 8}, 1, 0);
  const CommGraph cubic2 = tofa::anneal::cubic_graph({8, 8, 8}, 2, 1);
  const std::vector<Case> cases = {
      {cubic1, torus8, 3072},
      {tofa::with_shuffled_ids(cubic1, 1), torus8, 3072},
      {cubic2, torus8, 12288},
      {tofa::with_shuffled_ids(cubic2, 1), torus8, 12288},
      {tofa::with_shuffled_ids(tofa::stencil_graph({16, 16, 16}), 2),
       Topology::from_spec("torus:16x16x16"), 3 * 16 * 16 * 15 * 2},
  };
  for (const Case& c : cases) {
    EXPECT_DOUBLE_EQ(tofa::free_energy_lower_bound(c.graph, c.torus, 1), c.bound);
    for (const char* anneal : {"no", "yes"}) {
      const Placement placement = tofa::make_anneal_mapper()->map(
          request_for(c.graph, c.torus, 1, {{"start", "grow"}, {"anneal", anneal}}));
      EXPECT_DOUBLE_EQ(tofa::free_energy(c.graph, c.torus, placement), c.bound)
          << c.torus.describe() << " anneal=" << anneal;
    }
  }
}

// Table 1, SA 1 from the seed's heuristic map, with the task ids shuffled
// so that the heuristic cannot follow rank order (it starts at 3.2 x):
// annealing with local proposals reaches F_min = 3072 (seeds 1-3 all do;
// on Cubic 2 the same run ends in a misfolded plane at 1.17 x, see
// bench_anneal).
TEST(AnnealCubic, Cubic1FromTheSeedsHeuristicReachesTheBound) {
  const CommGraph graph = tofa::with_shuffled_ids(tofa::anneal::cubic_graph({8, 8, 8}, 1, 0), 1);
  const Topology torus = Topology::from_spec("torus:8x8x8");
  MappingRequest request = request_for(
      graph, torus, 1, {{"start", "heuristic"}, {"proposal", "local"}, {"sweeps", "100000"}});
  request.seed = 1;
  const tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(
      request, tofa::anneal::parse_anneal_options(request.parameters));
  EXPECT_GT(result.start_energy / result.lower_bound, 3.0);
  EXPECT_DOUBLE_EQ(tofa::free_energy(graph, torus, result.placement), 3072.0);
}

// The annealing itself, on the smallest faithful Cubic problems: from a
// random map (about 3 x F_min on 4^3 and 2.3 x on Cubic 2) to F = F_min
// with 20000 sweeps (1.3 M proposals). Seeds 1..8 all reach F_min for both
// problems (the default 2000 sweeps: 3 of 8 for Cubic 1, 4 of 8 for Cubic 2).
// On 8^3 the default budget ends near 1.9 x from random; see bench_anneal.
TEST(AnnealCubic, Cubic1OnFourCubedFromRandomReachesTheBound) {
  const CommGraph graph = tofa::anneal::cubic_graph({4, 4, 4}, 1, 0);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  MappingRequest request =
      request_for(graph, torus, 1, {{"start", "random"}, {"sweeps", "20000"}});
  request.seed = 1;
  const Placement placement = tofa::make_anneal_mapper()->map(request);
  EXPECT_DOUBLE_EQ(tofa::free_energy_lower_bound(graph, torus, 1), 384.0);  // 64 * 6
  EXPECT_DOUBLE_EQ(tofa::free_energy(graph, torus, placement), 384.0);
}

// On a ring of 4 the two next-nearest targets are the same domain, so each
// domain sends 2 + 2 over 1 hop in each direction... per dimension
// 2 * 2 * 1 + 1 * 2 * 2 = 8 hop-units (the distance-2 partner once, with
// both packets); 3 dimensions and 64 domains: F_min = 64 * 24 = 1536.
TEST(AnnealCubic, Cubic2OnFourCubedFromRandomReachesTheBound) {
  const CommGraph graph = tofa::anneal::cubic_graph({4, 4, 4}, 2, 1);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  std::vector<int> rank(64);
  std::iota(rank.begin(), rank.end(), 0);
  EXPECT_DOUBLE_EQ(tofa::free_energy_lower_bound(graph, torus, 1), 1536.0);
  EXPECT_DOUBLE_EQ(tofa::free_energy(graph, torus, rank), 1536.0);
  MappingRequest request =
      request_for(graph, torus, 1, {{"start", "random"}, {"sweeps", "20000"}});
  request.seed = 1;
  const Placement placement = tofa::make_anneal_mapper()->map(request);
  EXPECT_DOUBLE_EQ(tofa::free_energy(graph, torus, placement), 1536.0);
}

// Annealing never ends above its start: from random on 8^3 (about 5.9 x)
// the default budget brings Cubic 1 and Cubic 2 below 2.5 x.
TEST(AnnealCubic, EightCubedFromRandomImprovesFar) {
  const Topology torus = Topology::from_spec("torus:8x8x8");
  for (double next_nearest : {0.0, 1.0}) {
    const CommGraph graph = tofa::anneal::cubic_graph({8, 8, 8}, next_nearest > 0 ? 2 : 1,
                                                      next_nearest);
    MappingRequest request = request_for(graph, torus, 1, {{"start", "random"}});
    const tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(
        request, tofa::anneal::parse_anneal_options(request.parameters));
    EXPECT_GT(result.start_energy / result.lower_bound, 4.0);
    EXPECT_LT(result.energy / result.lower_bound, 2.5) << "next-nearest " << next_nearest;
    EXPECT_DOUBLE_EQ(result.energy, tofa::free_energy(graph, torus, result.placement));
  }
}

TEST(AnnealStrategy, SameSeedSamePlacement) {
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 4);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  MappingRequest request = request_for(graph, torus, 1, {{"start", "random"}, {"sweeps", "50"}});
  request.seed = 7;
  const auto mapper = tofa::make_anneal_mapper();
  const Placement first = mapper->map(request);
  EXPECT_EQ(first, mapper->map(request));
  request.seed = 8;
  EXPECT_NE(first, mapper->map(request));
}

// Equation 3 with p = 10 / 4 = 2.5: every node holds 2 or 3 tasks, and
// (10 = 2*4 + 2) exactly two nodes hold 3, although each could take 4.
TEST(AnnealStrategy, MoreTasksThanNodesKeepsEquationThree) {
  const CommGraph graph = tofa_test::ring_graph(10);
  const Topology torus = Topology::from_spec("torus:2x2");
  for (const char* start : {"grow", "heuristic", "basic", "rank", "random"}) {
    const Placement placement = tofa::make_anneal_mapper()->map(
        request_for(graph, torus, 4, {{"start", start}, {"sweeps", "200"}}));
    std::vector<int> count = loads(placement, 4);
    std::sort(count.begin(), count.end());
    EXPECT_EQ(count, (std::vector<int>{2, 2, 3, 3})) << "start " << start;
  }
}

// load=slots drops Equation 3: a ring of 8 with 4 slots per node packs into
// two neighbouring nodes, 4 consecutive tasks each (F = 2 cut edges * 1
// hop, the optimum). F_min is 0 here: each task's two partners fit on its
// own node, which the bound allows for every task at once.
TEST(AnnealStrategy, SlotLoadMayPack) {
  const CommGraph graph = tofa_test::ring_graph(8);
  const Topology torus = Topology::from_spec("torus:4x4");
  const Placement placement =
      tofa::make_anneal_mapper()->map(request_for(graph, torus, 4, {{"load", "slots"}}));
  EXPECT_DOUBLE_EQ(tofa::free_energy(graph, torus, placement), 2.0);
  EXPECT_DOUBLE_EQ(tofa::free_energy_lower_bound(graph, torus, 4), 0.0);
}

// Fewer tasks than nodes: p < 1, so at most one task per node, and the ring
// of 8 is laid on a cycle of 8 nodes of the 4x4 torus: F = 8.
TEST(AnnealStrategy, FewerTasksThanNodes) {
  const CommGraph graph = tofa_test::ring_graph(8);
  const Topology torus = Topology::from_spec("torus:4x4");
  const Placement placement = tofa::make_anneal_mapper()->map(request_for(graph, torus, 4));
  const std::vector<int> count = loads(placement, 16);
  EXPECT_EQ(*std::max_element(count.begin(), count.end()), 1);
  EXPECT_DOUBLE_EQ(tofa::free_energy(graph, torus, placement), 8.0);
}

TEST(AnnealStrategy, StaysOnCandidatesAndAvoidsFaultyNodes) {
  const CommGraph graph = tofa_test::ring_graph(6);
  const Topology torus = Topology::from_spec("torus:4x4");
  MappingRequest request = request_for(graph, torus, 1);
  request.candidate_nodes = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  request.outage.assign(16, 0.0);
  request.outage[1] = 0.02;
  request.outage[5] = 0.02;
  const Placement placement = tofa::make_anneal_mapper()->map(request);
  for (int node : placement) {
    EXPECT_LT(node, 10);
    EXPECT_NE(node, 1);
    EXPECT_NE(node, 5);
  }
  // faulty=ignore may use them again; with 9 tasks on 8 fault-free
  // candidates the faulty ones are needed anyway.
  const CommGraph nine = tofa_test::ring_graph(9);
  request.graph = &nine;
  const Placement crowded = tofa::make_anneal_mapper()->map(request);
  EXPECT_EQ(crowded.size(), 9u);
}

// Issue 12: anneal optimises Equation 1 along the routes. A chain of three
// tasks on candidates 0, 2, 4, 9 of a 12-node ring whose node 1 is faulty:
// by hops alone 0-2-4 is best (4 hops), but R(0,2) passes node 1 (cost 202
// each way); the Equation 1 optimum found by trying every assignment keeps
// its routes off node 1, and anneal must reach it.
TEST(AnnealStrategy, RoutesStayOffFaultyNodesAsEquationOneSays) {
  std::vector<tofa::CommEdge> edges = {{0, 1, 1000.0, 1}, {1, 2, 1000.0, 1}};
  const CommGraph chain = CommGraph::from_directed_edges(3, edges);
  const Topology ring = Topology::from_spec("torus:12");
  MappingRequest request = request_for(chain, ring, 1);
  request.candidate_nodes = {0, 2, 4, 9};
  request.outage.assign(12, 0.0);
  request.outage[1] = 0.02;
  const auto objective = [&](const Placement& p) {
    return tofa::fault_weighted_hop_bytes(ring, chain, p, request.outage, request.fault_cost);
  };
  double best = std::numeric_limits<double>::infinity();
  double best_hop_bytes = std::numeric_limits<double>::infinity();
  Placement hop_optimal;
  for (int a : request.candidate_nodes)
    for (int b : request.candidate_nodes)
      for (int c : request.candidate_nodes) {
        if (a == b || b == c || a == c) continue;
        const Placement p = {a, b, c};
        best = std::min(best, objective(p));
        const double hop_bytes = tofa::evaluate_placement(chain, ring, p).hop_bytes;
        if (hop_bytes < best_hop_bytes) best_hop_bytes = hop_bytes, hop_optimal = p;
      }
  ASSERT_GT(tofa::expected_abort_probability(ring, chain, hop_optimal, request.outage), 0.0);
  const Placement placement = tofa::make_anneal_mapper()->map(request);
  EXPECT_DOUBLE_EQ(objective(placement), best);
  EXPECT_DOUBLE_EQ(tofa::expected_abort_probability(ring, chain, placement, request.outage), 0.0);
}

TEST(AnnealStrategy, EveryMetricStartAndProposalGivesAValidPlacement) {
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 2);
  const Topology torus = Topology::from_spec("torus:4x4x2");
  for (const char* metric : {"hops", "scaled", "euclid"})
    for (const char* proposal : {"uniform", "local", "mixed"})
      for (const char* start : {"grow", "heuristic", "basic", "rank", "random", "scotch"}) {
        MappingRequest request = request_for(
            graph, torus, 1,
            {{"metric", metric}, {"proposal", proposal}, {"start", start}, {"sweeps", "20"}});
        const Placement placement = tofa::make_anneal_mapper()->map(request);
        EXPECT_NO_THROW(tofa::check_placement(request, placement))
            << metric << " " << proposal << " " << start;
        // Rank order reaches F_min under every metric here (all edges 1 hop
        // in 1 dimension): the annealer never returns worse than its start.
        if (std::string(start) == "rank") {
          const auto energy = tofa::free_energy_of(graph, torus, placement, 1,
                                                   tofa::parse_distance_metric(metric));
          EXPECT_DOUBLE_EQ(energy.ratio(), 1.0) << metric << " " << proposal;
        }
      }
}

// Divide and conquer: an 8^3 stencil splits into several stages under
// limit 0.95 (a 4x4x4 block keeps about 90% of its traffic inside) and the
// result is still a valid, much better than random placement.
TEST(AnnealStrategy, DivideAndConquerMapsEveryStage) {
  const CommGraph graph = tofa_test::stencil_graph(8, 8, 8);
  const Topology torus = Topology::from_spec("torus:8x8x8");
  MappingRequest request =
      request_for(graph, torus, 1, {{"divide", "yes"}, {"limit", "0.95"}, {"sweeps", "100"}});
  const tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(
      request, tofa::anneal::parse_anneal_options(request.parameters));
  EXPECT_GT(result.stages, 1);
  EXPECT_NO_THROW(tofa::check_placement(request, result.placement));
  EXPECT_LT(result.energy / result.lower_bound, 4.0);
}

// A budget covers every stage: once it is spent, the stages still to come
// keep their starts (each used to get at least 1 ms of annealing, so that a
// 64-task job divided in 32 stages took ~100 ms on a 2 ms budget).
TEST(AnnealStrategy, DividedRunsStopAnnealingWhenTheBudgetIsSpent) {
  const CommGraph graph = tofa_test::stencil_graph(8, 8, 8);
  const Topology torus = Topology::from_spec("torus:8x8x8");
  MappingRequest request = request_for(
      graph, torus, 1, {{"divide", "yes"}, {"limit", "0.95"}, {"start", "random"}, {"budget", "1e-9"}});
  const tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(
      request, tofa::anneal::parse_anneal_options(request.parameters));
  EXPECT_GT(result.stages, 1);
  EXPECT_EQ(result.proposals, 0u);
  EXPECT_DOUBLE_EQ(result.energy, result.start_energy);
  EXPECT_NO_THROW(tofa::check_placement(request, result.placement));
}

// F never goes below F_min, so a start at F_min is returned as it is.
TEST(AnnealStrategy, AnOptimalStartIsNotAnnealed) {
  const CommGraph graph = tofa::anneal::cubic_graph({4, 4, 4}, 2, 1);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  MappingRequest request = request_for(graph, torus, 1);
  const tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(
      request, tofa::anneal::parse_anneal_options(request.parameters));
  EXPECT_DOUBLE_EQ(result.start_energy, result.lower_bound);
  EXPECT_DOUBLE_EQ(result.energy, result.lower_bound);
  EXPECT_EQ(result.proposals, 0u);
}

TEST(AnnealStrategy, BudgetsAreHonoured) {
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 4);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  // From random: the grow start is already optimal here, and an optimal
  // start is not annealed at all.
  MappingRequest request =
      request_for(graph, torus, 1, {{"iterations", "5000"}, {"start", "random"}});
  tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(
      request, tofa::anneal::parse_anneal_options(request.parameters));
  // The budget bounds the ladder except that each of its 100 betas gets at
  // least one sweep (64 proposals for 64 tasks); the warm-up (at most 60
  // sweeps), the final quench (at most 20) and the local descent (each pass
  // tries at most 64 sites per task) come on top.
  const std::uint64_t descent_pass = 64u * 64;
  EXPECT_GT(result.proposals, 0u);
  EXPECT_LE(result.proposals, 100u * 64 + 60u * 64 + 20u * 64 + 10 * descent_pass);
  // A larger budget is used (this map freezes early, so not all of it: a
  // frozen ladder ends its cycle).
  const std::uint64_t small = result.proposals;
  request.parameters["iterations"] = "200000";
  result = tofa::anneal::anneal_placement(request,
                                          tofa::anneal::parse_anneal_options(request.parameters));
  EXPECT_GT(result.proposals, 2 * small);
  EXPECT_LE(result.proposals, 200000u + 100u * 64 + 60u * 64 + 20u * 64 + 10 * descent_pass);
  // A time budget: how far the chain gets depends on the machine's load, but
  // it starts from the same seeded random map, and what it returns is a
  // permutation of the 64 nodes whose F lies between F_min (the stencil's 144
  // edges of 1 byte, each at least 1 hop) and that start's F.
  request.parameters["budget"] = "0.05";
  request.parameters.erase("iterations");
  const double f_min = 144;
  ASSERT_DOUBLE_EQ(tofa::free_energy_lower_bound(graph, torus, 1), f_min);
  const Placement start = tofa::make_anneal_mapper()->map(
      request_for(graph, torus, 1, {{"start", "random"}, {"anneal", "no"}}));
  const double f_start = tofa::free_energy(graph, torus, start);
  EXPECT_GT(f_start, 1.5 * f_min);  // a random map is far from optimal
  const tofa::anneal::AnnealResult timed = tofa::anneal::anneal_placement(
      request, tofa::anneal::parse_anneal_options(request.parameters));
  EXPECT_DOUBLE_EQ(timed.lower_bound, f_min);
  EXPECT_DOUBLE_EQ(timed.start_energy, f_start);
  EXPECT_DOUBLE_EQ(timed.energy, tofa::free_energy(graph, torus, timed.placement));
  for (const Placement& placement :
       {timed.placement, tofa::make_anneal_mapper()->map(request)}) {
    std::vector<int> sorted = placement;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> every_node(64);
    std::iota(every_node.begin(), every_node.end(), 0);
    EXPECT_EQ(sorted, every_node);
    const double f = tofa::free_energy(graph, torus, placement);
    EXPECT_GE(f, f_min);
    EXPECT_LE(f, f_start);
  }
}

// anneal=no returns the starting map: rank order is the identity here.
TEST(AnnealStrategy, StartMapAlone) {
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 4);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  std::vector<int> identity(64);
  std::iota(identity.begin(), identity.end(), 0);
  EXPECT_EQ(tofa::make_anneal_mapper()->map(
                request_for(graph, torus, 1, {{"start", "rank"}, {"anneal", "no"}})),
            identity);
}

// anneal=descent from a given placement: every change lowers F, so F never
// rises, the load per node stays within the slots, and a placement that is
// one swap away from the identity on a ring comes back to F_min.
TEST(AnnealStrategy, DescentFromAGivenPlacement) {
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 4);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  MappingRequest request = request_for(graph, torus, 1, {{"load", "slots"}});
  tofa::anneal::AnnealOptions options = tofa::anneal::parse_anneal_options(request.parameters);
  options.start = tofa::anneal::StartKind::Given;
  options.search = tofa::anneal::Search::Descent;
  std::vector<int> given(64);
  std::iota(given.begin(), given.end(), 0);
  std::swap(given[5], given[42]);
  options.given_start = given;
  const tofa::anneal::AnnealResult swapped = tofa::anneal::anneal_placement(request, options);
  EXPECT_GT(swapped.start_energy, swapped.lower_bound);
  EXPECT_DOUBLE_EQ(swapped.energy, swapped.lower_bound);

  const Placement random = tofa::make_mapper("random")->map(request);
  options.given_start = random;
  const tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(request, options);
  EXPECT_LT(result.energy, result.start_energy);
  for (int load : loads(result.placement, 64)) EXPECT_LE(load, 1);
}

TEST(AnnealStrategy, ParameterErrors) {
  const CommGraph graph = tofa_test::ring_graph(4);
  const Topology torus = Topology::from_spec("torus:4");
  auto map_with = [&](const std::string& key, const std::string& value) {
    return error_text(
        [&] { tofa::make_anneal_mapper()->map(request_for(graph, torus, 1, {{key, value}})); });
  };
  EXPECT_EQ(map_with("metric", "manhattan"),
            "anneal: parameter metric: expected hops, scaled or euclid, found 'manhattan'");
  EXPECT_EQ(map_with("start", "best"),
            "anneal: parameter start: expected grow, heuristic, basic, rank, random or scotch, "
            "found 'best'");
  EXPECT_EQ(map_with("attempts", "0"),
            "anneal: parameter attempts: expected a whole number from 1 to 10000, found '0'");
  EXPECT_EQ(map_with("budget", "-1"),
            "anneal: parameter budget: expected a positive number of seconds, found '-1'");
  EXPECT_EQ(map_with("iterations", "1.5"),
            "anneal: parameter iterations: expected a positive whole number, found '1.5'");
  EXPECT_EQ(map_with("divide", "maybe"),
            "anneal: parameter divide: expected auto, no or yes, found 'maybe'");
  EXPECT_EQ(map_with("limit", "1.5"),
            "anneal: parameter limit: expected a number in (0, 1], found '1.5'");
  EXPECT_EQ(map_with("steps", "0"),
            "anneal: parameter steps: expected a whole number from 1 to 10000, found '0'");
  EXPECT_EQ(map_with("proposal", "far"),
            "anneal: parameter proposal: expected uniform, local or mixed, found 'far'");
  EXPECT_EQ(map_with("load", "tight"),
            "anneal: parameter load: expected balanced or slots, found 'tight'");
  EXPECT_EQ(map_with("progress", "loud"),
            "anneal: parameter progress: expected auto, yes or no, found 'loud'");
  EXPECT_EQ(map_with("accept", "1"), "anneal: parameter accept: expected a number in (0, 1), found '1'");
  EXPECT_EQ(map_with("anneal", "maybe"),
            "anneal: parameter anneal: expected yes, no or descent, found 'maybe'");
  EXPECT_EQ(map_with("unrelated", "x"), "<no exception>");
}

TEST(AnnealStrategy, TooManyTasks) {
  const CommGraph graph = tofa_test::ring_graph(5);
  const Topology torus = Topology::from_spec("torus:4");
  EXPECT_NE(error_text([&] { tofa::make_anneal_mapper()->map(request_for(graph, torus, 1)); }),
            "<no exception>");
}

}  // namespace
