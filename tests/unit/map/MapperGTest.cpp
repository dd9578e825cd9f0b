// Mapping strategies and their registry: validity on many cases, determinism,
// the exact layouts and fault avoidance each strategy promises, error texts.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <fstream>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "base/error.hpp"
#include "faults/faults.hpp"
#include "fixtures.hpp"
#include "map/capacity_repair.hpp"
#include "map/mapper.hpp"
#include "map/scotch/deco_arch.hpp"
#include "map/scotch/gmap_anchor.hpp"
#include "map/scotch/scotch_target.hpp"
#include "map/slot_pool.hpp"
#include "metrics/metrics.hpp"

namespace {

using tofa::CommEdge;
using tofa::CommGraph;
using tofa::MappingRequest;
using tofa::Placement;
using tofa::Topology;

using tofa_test::error_text;
using tofa_test::random_sparse_graph;


MappingRequest request_for(const CommGraph& graph, const Topology& topology, int slots = 1) {
  MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.slots_per_node = slots;
  return request;
}

/// Checks the placement without trusting check_placement.
void expect_valid(const MappingRequest& request, const Placement& placement) {
  ASSERT_EQ(placement.size(), static_cast<std::size_t>(request.graph->task_count()));
  std::vector<int> candidates = request.candidate_nodes;
  if (candidates.empty()) {
    candidates.resize(request.topology->node_count());
    std::iota(candidates.begin(), candidates.end(), 0);
  }
  const int slots =
      request.slots_per_node > 0 ? request.slots_per_node : request.topology->cores_per_node();
  std::vector<int> load(request.topology->node_count(), 0);
  for (std::size_t task = 0; task < placement.size(); ++task) {
    const int node = placement[task];
    ASSERT_NE(std::find(candidates.begin(), candidates.end(), node), candidates.end())
        << "task " << task << " on node " << node;
    ++load[node];
  }
  for (int node = 0; node < request.topology->node_count(); ++node)
    EXPECT_LE(load[node], slots) << "node " << node;
  EXPECT_NO_THROW(tofa::check_placement(request, placement));
}

struct Case {
  std::string name;
  Topology topology;
  CommGraph graph;
  int slots;
  std::vector<int> candidates;
  std::vector<double> outage;
};

std::vector<Case> validity_cases() {
  std::vector<Case> cases;
  cases.push_back({"4x4x4 torus, stencil, 1 slot", Topology::from_spec("torus:4x4x4"),
                   tofa_test::stencil_graph(4, 4, 4), 1, {}, {}});
  cases.push_back({"8x8x8 torus, 85 sparse tasks, 4 slots", Topology::from_spec("torus:8x8x8"),
                   random_sparse_graph(85, 7), 4, {}, {}});
  cases.push_back({"6x5 mesh, ring of 20, 1 slot", Topology::from_spec("mesh:6x5"),
                   tofa_test::ring_graph(20), 1, {}, {}});
  cases.push_back({"4x4x3 mesh, 30 sparse tasks, 2 slots", Topology::from_spec("mesh:4x4x3"),
                   random_sparse_graph(30, 3), 2, {}, {}});
  cases.push_back({"4x4 mixed wrap, ring of 12", Topology({4, 4}, {true, false}),
                   tofa_test::ring_graph(12), 1, {}, {}});
  {
    std::vector<int> subset;
    for (int node = 0; node < 64; node += 2) subset.push_back(node);
    std::shuffle(subset.begin(), subset.end(), std::mt19937(11));
    subset.resize(24);
    cases.push_back({"4x4x4 torus, 24 shuffled candidates, 40 tasks, 2 slots",
                     Topology::from_spec("torus:4x4x4"), random_sparse_graph(40, 5), 2, subset,
                     {}});
  }
  {
    std::vector<double> outage(64, 0.0);
    for (int node = 0; node < 64; node += 2) outage[node] = 0.1;
    cases.push_back({"4x4x4 torus, every other node faulty, 20 tasks",
                     Topology::from_spec("torus:4x4x4"), random_sparse_graph(20, 9), 1, {},
                     outage});
  }
  {
    std::vector<double> outage(512, 0.0);
    for (int node = 0; node < 512; node += 5) outage[node] = 0.01;
    cases.push_back({"8x8x8 torus, every 5th node faulty, 85 tasks, 4 slots",
                     Topology::from_spec("torus:8x8x8"), random_sparse_graph(85, 1), 4, {},
                     outage});
  }
  cases.push_back({"4x4x4 torus, more slots than tasks need, cores=3",
                   Topology::from_spec("torus:4x4x4:cores=3"), random_sparse_graph(10, 2), 0,
                   {}, {}});
  return cases;
}

// ---------------------------------------------------------------- registry

TEST(MapperRegistry, ListsTheFourStrategiesInOrder) {
  std::vector<std::string> names;
  for (const tofa::MapperInfo& info : tofa::mapper_table()) {
    names.push_back(info.name);
    EXPECT_NE(std::string(info.summary), "");
    EXPECT_NE(tofa::make_mapper(info.name), nullptr);
  }
  // The seed's four come first, in the order tofa-map --compare prints them.
  ASSERT_GE(names.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + 4),
            (std::vector<std::string>{"default-slurm", "random", "greedy", "tofa"}));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

TEST(MapperRegistry, UnknownStrategyListsTheKnownOnes) {
  std::string known;
  for (const auto& info : tofa::mapper_table()) known += (known.empty() ? "" : ", ") + std::string(info.name);
  EXPECT_EQ(error_text([] { tofa::make_mapper("foo"); }),
            "unknown strategy 'foo': expected one of " + known);
  EXPECT_EQ(known.rfind("default-slurm, random, greedy, tofa", 0), 0u) << known;
}

// ---------------------------------------------------------------- helpers

TEST(MapperHelpers, EffectiveCandidatesDefaultsToAllNodesInIdOrder) {
  const Topology topology = Topology::from_spec("torus:2x2");
  const CommGraph graph = tofa_test::ring_graph(3);
  MappingRequest request = request_for(graph, topology);
  EXPECT_EQ(tofa::effective_candidates(request), (std::vector<int>{0, 1, 2, 3}));
  request.candidate_nodes = {3, 1};
  EXPECT_EQ(tofa::effective_candidates(request), (std::vector<int>{3, 1}));
}

TEST(MapperHelpers, CandidateErrors) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = tofa_test::ring_graph(4);
  MappingRequest request = request_for(graph, topology);
  request.candidate_nodes = {1, 600};
  EXPECT_EQ(error_text([&] { tofa::effective_candidates(request); }),
            "candidate node 600 is outside 0..511");
  request.candidate_nodes = {7, 3, 7};
  EXPECT_EQ(error_text([&] { tofa::effective_candidates(request); }),
            "candidate node 7 is listed twice");
  // The check's node marks are the thread's, kept between requests: a
  // refused list leaves none behind.
  request.candidate_nodes = {3, 7};
  EXPECT_EQ(tofa::effective_candidates(request), (std::vector<int>{3, 7}));
  request.candidate_nodes = {3, 9, 600};
  EXPECT_THROW(tofa::check_candidates(request), tofa::Error);
  request.candidate_nodes = {9, 3};
  EXPECT_EQ(tofa::check_candidates(request), 2u);
}

TEST(MappingRequestOutage, CopiesShareTheTableUntilOneWrites) {
  const Topology topology = Topology::from_spec("torus:2x2");
  const CommGraph graph = tofa_test::ring_graph(3);
  MappingRequest request = request_for(graph, topology);
  request.outage.assign(4, 0.0);
  MappingRequest copy = request;
  EXPECT_EQ(&copy.outage.values(), &request.outage.values());
  copy.outage[2] = 0.5;
  EXPECT_EQ(request.outage[2], 0.0);
  EXPECT_EQ(copy.outage[2], 0.5);
  EXPECT_NE(&copy.outage.values(), &request.outage.values());
  EXPECT_FALSE(copy.outage == request.outage);
  copy.outage.clear();
  EXPECT_TRUE(copy.outage.empty());
  EXPECT_EQ(request.outage.size(), 4u);
}

TEST(MapperHelpers, SlotsComeFromTheRequestOrTheCores) {
  const Topology topology = Topology::from_spec("torus:4x4:cores=6");
  const CommGraph graph = tofa_test::ring_graph(4);
  MappingRequest request = request_for(graph, topology, 0);
  EXPECT_EQ(tofa::effective_slots(request), 6);
  request.slots_per_node = 2;
  EXPECT_EQ(tofa::effective_slots(request), 2);
}

TEST(MapperHelpers, CapacityError) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(85, 1);
  MappingRequest request = request_for(graph, topology, 4);
  for (int node = 0; node < 16; ++node) request.candidate_nodes.push_back(node);
  // 16 nodes * 4 slots = 64 < 85.
  EXPECT_EQ(error_text([&] { tofa::check_capacity(request); }),
            "85 tasks do not fit on 16 nodes with 4 slots each");
  request.slots_per_node = 6;  // 96 >= 85
  EXPECT_NO_THROW(tofa::check_capacity(request));
}

TEST(MapperHelpers, PlacementErrors) {
  const Topology topology = Topology::from_spec("torus:4x4");
  const CommGraph graph = tofa_test::ring_graph(4);
  MappingRequest request = request_for(graph, topology, 2);
  request.candidate_nodes = {5, 6, 7};
  EXPECT_EQ(error_text([&] { tofa::check_placement(request, {5, 6, 7}); }),
            "placement has 3 entries, expected 4 tasks");
  EXPECT_EQ(error_text([&] { tofa::check_placement(request, {5, 6, 9, 7}); }),
            "task 2 is placed on node 9, which is not a candidate");
  EXPECT_EQ(error_text([&] { tofa::check_placement(request, {5, 6, 5, 5}); }),
            "node 5 has 3 tasks, more than its 2 slots");
  EXPECT_NO_THROW(tofa::check_placement(request, {5, 6, 5, 7}));
}

TEST(MapperHelpers, OutageOf) {
  const Topology topology = Topology::from_spec("torus:2x2");
  const CommGraph graph = tofa_test::ring_graph(2);
  MappingRequest request = request_for(graph, topology);
  EXPECT_EQ(tofa::outage_of(request, 3), 0.0);
  request.outage = {0, 0.5, 0, 0.25};
  EXPECT_EQ(tofa::outage_of(request, 1), 0.5);
  EXPECT_EQ(tofa::outage_of(request, 3), 0.25);
}

// ---------------------------------------------------------------- every strategy

TEST(EveryStrategy, PlacesEachTaskOnceOnACandidateWithinSlots) {
  for (const tofa::MapperInfo& info : tofa::mapper_table()) {
    if (!info.general) continue;
    SCOPED_TRACE(info.name);
    const auto mapper = info.create();
    for (const Case& c : validity_cases()) {
      SCOPED_TRACE(c.name);
      MappingRequest request = request_for(c.graph, c.topology, c.slots);
      request.candidate_nodes = c.candidates;
      request.outage = c.outage;
      request.seed = 42;
      const Placement placement = mapper->map(request);
      expect_valid(request, placement);
      EXPECT_EQ(mapper->map(request), placement) << "not deterministic for a seed";
    }
  }
}

TEST(EveryStrategy, SpecialisedStrategiesRefuseOtherJobsWithAnError) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(85, 3);  // no stencil, no spec
  const MappingRequest request = request_for(graph, topology);
  for (const tofa::MapperInfo& info : tofa::mapper_table()) {
    if (info.general) continue;
    SCOPED_TRACE(info.name);
    EXPECT_THROW(info.create()->map(request), tofa::Error);
  }
}

TEST(EveryStrategy, RefusesTasksThatDoNotFit) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(85, 1);
  MappingRequest request = request_for(graph, topology, 4);
  for (int node = 0; node < 16; ++node) request.candidate_nodes.push_back(node);
  for (const tofa::MapperInfo& info : tofa::mapper_table()) {
    if (!info.general) continue;
    SCOPED_TRACE(info.name);
    EXPECT_EQ(error_text([&] { info.create()->map(request); }),
              "85 tasks do not fit on 16 nodes with 4 slots each");
  }
}

TEST(EveryStrategy, HandlesAGraphWithoutTasks) {
  const Topology topology = Topology::from_spec("torus:2x2");
  const CommGraph graph = CommGraph::from_directed_edges(0, {});
  for (const tofa::MapperInfo& info : tofa::mapper_table()) {
    if (!info.general) continue;
    SCOPED_TRACE(info.name);
    EXPECT_TRUE(info.create()->map(request_for(graph, topology)).empty());
  }
}

// ---------------------------------------------------------------- default-slurm

TEST(DefaultSlurm, FillsCandidatesInOrderBlockByBlock) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa_test::ring_graph(5);
  MappingRequest request = request_for(graph, topology, 2);
  request.candidate_nodes = {5, 3, 9, 1};
  request.outage.assign(64, 0.0);
  request.outage[5] = 0.9;  // ignored, as by Slurm
  // Tasks 0,1 -> first candidate; 2,3 -> second; 4 -> third.
  EXPECT_EQ(tofa::make_mapper("default-slurm")->map(request), (Placement{5, 5, 3, 3, 9}));
}

// ---------------------------------------------------------------- random

TEST(Random, DependsOnTheSeed) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(85, 1);
  MappingRequest request = request_for(graph, topology, 1);
  const auto mapper = tofa::make_mapper("random");
  request.seed = 1;
  const Placement first = mapper->map(request);
  request.seed = 2;
  // Two seeds giving the same 85 nodes out of 512 is practically impossible.
  EXPECT_NE(mapper->map(request), first);
}

TEST(Random, FillsEverySlotWhenTasksEqualCapacity) {
  const Topology topology = Topology::from_spec("torus:2x2x2");
  const CommGraph graph = tofa_test::ring_graph(16);
  const MappingRequest request = request_for(graph, topology, 2);
  const Placement placement = tofa::make_mapper("random")->map(request);
  std::vector<int> load(8, 0);
  for (int node : placement) ++load[node];
  EXPECT_EQ(load, std::vector<int>(8, 2));
}

// ---------------------------------------------------------------- greedy

CommGraph heavy_pair() { return CommGraph::from_directed_edges(2, {{0, 1, 1e9, 1}}); }

TEST(Greedy, PutsAHeavyPairOnNeighbours) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = heavy_pair();
  const Placement placement = tofa::make_mapper("greedy")->map(request_for(graph, topology));
  EXPECT_EQ(topology.hop_distance(placement[0], placement[1]), 1);
}

TEST(Greedy, StartsAtTheFirstFaultFreeCandidateAndPrefersFaultFreeNeighbours) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = heavy_pair();
  MappingRequest request = request_for(graph, topology);
  request.outage.assign(64, 0.0);
  request.outage[0] = 0.2;
  // Task 0 starts at node 1, the first fault-free candidate. Node 1's
  // neighbours in id order are 0, 2, 5, 13, 17, 49; node 0 is faulty, so
  // task 1 goes to node 2.
  EXPECT_EQ(tofa::make_mapper("greedy")->map(request), (Placement{1, 2}));
}

TEST(Greedy, SharesANodeWhenItHasAFreeSlot) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = heavy_pair();
  EXPECT_EQ(tofa::make_mapper("greedy")->map(request_for(graph, topology, 2)), (Placement{0, 0}));
}

TEST(Greedy, HeaviestPairsFirstAndIsolatedTasksLast) {
  // A 1D ring of 8 nodes; edges 2-3 (100 bytes) and 3-4 (10 bytes); tasks 0,
  // 1 have no edges. Pair 2-3: task 2 starts at node 0, task 3 at the nearest
  // node, 1 (distance 1, lower in candidate order than 7). Pair 3-4: task 4
  // goes next to node 1 -> node 2. Tasks 0 and 1 take the first free slots,
  // nodes 3 and 4.
  const Topology topology = Topology::from_spec("torus:8");
  const CommGraph graph =
      CommGraph::from_directed_edges(5, {{2, 3, 100, 1}, {3, 4, 10, 1}});
  EXPECT_EQ(tofa::make_mapper("greedy")->map(request_for(graph, topology)),
            (Placement{3, 4, 0, 1, 2}));
}

// ---------------------------------------------------------------- tofa

// Pools above 512 nodes look in boxes of the torus instead of scanning the
// free nodes: the answer is the same as the definition (fewest hops, then
// fault-free, then list order), here on shuffled lists of a 12x12x6 torus, a
// 30x20 mesh, a 4D torus of odd sizes and 700 of a 16x16x8 torus's nodes,
// with random slots taken until none is left.
TEST(GreedyRoutes, TakesAFartherNodeWhenTheNearestRoutesThroughAFailingNode) {
  // 4x4 torus, node 1 = (1,0) failing. From node 0, candidates 2 = (2,0) and
  // 8 = (0,2) are both 2 hops away; R(0,2) = 0-1-2 crosses node 1, R(0,8) =
  // 0-4-8 does not. greedy takes 2 (candidate order), greedy-routes 8.
  const Topology topology = Topology::from_spec("torus:4x4");
  const CommGraph graph = CommGraph::from_directed_edges(2, {{0, 1, 10, 1}});
  MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.candidate_nodes = {0, 2, 8};
  request.outage.assign(16, 0.0);
  request.outage[1] = 0.02;
  const Placement greedy = tofa::make_mapper("greedy")->map(request);
  EXPECT_EQ(greedy, (Placement{0, 2}));
  EXPECT_GT(tofa::expected_abort_probability(topology, graph, greedy, request.outage), 0);
  const Placement routes = tofa::make_mapper("greedy-routes")->map(request);
  EXPECT_EQ(routes, (Placement{0, 8}));
  EXPECT_EQ(tofa::expected_abort_probability(topology, graph, routes, request.outage), 0);
}

TEST(SlotPool, SearchFindsWhatTheDefinitionSays) {
  std::mt19937 engine(17);
  for (const auto& [spec, pool_size] : std::vector<std::pair<const char*, int>>{
           {"torus:12x12x6", 0}, {"mesh:30x20", 0}, {"torus:5x7x3x5", 0}, {"torus:16x16x8", 700},
           // Pools below 1/16 of the nodes look their nodes up in a sorted list.
           {"torus:16x16x8", 64}, {"torus:32x32x16", 600}}) {
    const tofa::Topology topology = tofa::Topology::from_spec(spec);
    const int count = topology.node_count();
    const CommGraph graph = CommGraph::from_directed_edges(1, {});
    MappingRequest request;
    request.topology = &topology;
    request.graph = &graph;
    request.outage.assign(count, 0.0);
    for (int k = 0; k < count / 10; ++k) request.outage[engine() % count] = 0.02;
    std::vector<int> nodes(count);
    std::iota(nodes.begin(), nodes.end(), 0);
    std::shuffle(nodes.begin(), nodes.end(), engine);
    if (pool_size > 0) nodes.resize(pool_size);
    std::vector<int> free_slots(count, 0);
    tofa::SlotPool pool(request, nodes, 2);
    for (int node : nodes) free_slots[node] = 2;
    const auto by_definition = [&](int origin) {
      int best = -1;
      for (int node : nodes) {
        if (free_slots[node] == 0) continue;
        const auto key = [&](int n) {
          return std::make_tuple(topology.hop_distance(origin, n), request.outage[n] > 0);
        };
        if (best < 0 || key(node) < key(best)) best = node;
      }
      return best;
    };
    for (int step = 0; step <= 2 * static_cast<int>(nodes.size()); ++step) {
      const int origin = static_cast<int>(engine() % count);
      const int expected = by_definition(origin);
      ASSERT_EQ(pool.nearest_free(origin), expected) << spec << " step " << step;
      if (expected < 0) break;
      pool.take(expected);
      --free_slots[expected];
    }
    EXPECT_EQ(pool.nearest_free(0), -1);
  }
}

TEST(Tofa, UsesTheOnlyConsecutiveFaultFreeRun) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa_test::ring_graph(8);
  MappingRequest request = request_for(graph, topology);
  request.outage.assign(64, 0.3);
  for (int node = 20; node < 28; ++node) request.outage[node] = 0;  // the run of 8
  for (int node = 40; node < 47; ++node) request.outage[node] = 0;  // only 7 long
  const Placement placement = tofa::make_mapper("tofa")->map(request);
  expect_valid(request, placement);
  // slots 1 and |S| == tasks: a bijection onto 20..27.
  std::vector<int> sorted = placement;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, (std::vector<int>{20, 21, 22, 23, 24, 25, 26, 27}));
}

TEST(Tofa, FindsTheRunInCandidateOrderWithSeveralSlots) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(85, 4);
  MappingRequest request = request_for(graph, topology, 4);
  // needed = ceil(85 / 4) = 22 nodes. Candidates: 100 nodes in a shuffled
  // order; every one is faulty except candidate positions 50..71.
  std::vector<int> nodes(512);
  std::iota(nodes.begin(), nodes.end(), 0);
  std::shuffle(nodes.begin(), nodes.end(), std::mt19937(3));
  request.candidate_nodes.assign(nodes.begin(), nodes.begin() + 100);
  request.outage.assign(512, 0.05);
  const std::set<int> run(request.candidate_nodes.begin() + 50,
                          request.candidate_nodes.begin() + 72);
  for (int node : run) request.outage[node] = 0;
  // A fault-free node outside the candidates must not extend any run.
  for (int node : nodes) {
    if (std::find(request.candidate_nodes.begin(), request.candidate_nodes.end(), node) ==
        request.candidate_nodes.end()) {
      request.outage[node] = 0;
      break;
    }
  }
  const Placement placement = tofa::make_mapper("tofa")->map(request);
  expect_valid(request, placement);
  for (std::size_t task = 0; task < placement.size(); ++task)
    EXPECT_EQ(run.count(placement[task]), 1u) << "task " << task << " on " << placement[task];
}

TEST(Tofa, StillMapsEverythingWhenNoRunExists) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa_test::ring_graph(8);
  MappingRequest request = request_for(graph, topology);
  request.outage.assign(64, 0.0);
  for (int node = 0; node < 64; node += 2) request.outage[node] = 0.5;
  const Placement placement = tofa::make_mapper("tofa")->map(request);
  expect_valid(request, placement);
  std::set<int> used(placement.begin(), placement.end());
  EXPECT_EQ(used.size(), 8u);
}

// Every 20th node of an 8x8x8 torus is faulty, so there is no run of 85
// consecutive fault-free nodes. tofa-compact must then use fault-free nodes
// only, all inside the shortest id window holding 85 of them: ids 1..89
// (faults at 0, 20, 40, 60, 80 leave 85 fault-free ids in 1..89; every window
// that holds 85 fault-free ids contains at least 4 faulty ones, span >= 89).
TEST(TofaCompact, UsesOnlyFaultFreeNodesOfTheShortestWindowWhenNoRunExists) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(85, 5);
  MappingRequest request = request_for(graph, topology);
  request.outage.assign(512, 0.0);
  for (int node = 0; node < 512; node += 20) request.outage[node] = 0.02;

  const Placement compact = tofa::make_mapper("tofa-compact")->map(request);
  expect_valid(request, compact);
  for (int node : compact) {
    EXPECT_EQ(request.outage[node], 0.0) << "node " << node;
    EXPECT_GE(node, 1);
    EXPECT_LE(node, 89);
  }
  // The literal Listing 1.1 spreads over the whole weighted target instead.
  const Placement literal = tofa::make_mapper("tofa")->map(request);
  expect_valid(request, literal);
  EXPECT_LT(tofa::evaluate_placement(graph, topology, compact, request.outage).abort_probability,
            tofa::evaluate_placement(graph, topology, literal, request.outage).abort_probability);
}

TEST(TofaCompact, FillsUpWithTheLeastFaultyNodesWhenTooFewAreFaultFree) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa_test::ring_graph(8);
  MappingRequest request = request_for(graph, topology);
  request.outage.assign(64, 0.5);
  for (int node : {3, 17, 40}) request.outage[node] = 0.0;
  for (int node : {5, 6, 7, 8, 9}) request.outage[node] = 0.01;
  const Placement placement = tofa::make_mapper("tofa-compact")->map(request);
  expect_valid(request, placement);
  EXPECT_EQ(std::set<int>(placement.begin(), placement.end()),
            (std::set<int>{3, 5, 6, 7, 8, 9, 17, 40}));
}

TEST(Tofa, StencilOnItsOwnTorusBeatsRandom) {
  // The stencil has 3 * 48 = 144 edges of 1 byte; with one task per node each
  // edge needs at least 1 hop, so hop-bytes >= 144, and the identity placement
  // reaches it: tofa (Scotch) finds that optimum. On a 4x4x4 torus two
  // distinct nodes are 3 * 64 / 63 hops apart on average (each ring of 4:
  // 0, 1, 2, 1), so a random placement averages 144 * 64 / 21 = 438.9.
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 4);
  MappingRequest request = request_for(graph, topology);
  const Placement tofa_placement = tofa::make_mapper("tofa")->map(request);
  expect_valid(request, tofa_placement);
  EXPECT_EQ(tofa::evaluate_placement(graph, topology, tofa_placement).hop_bytes, 144);
  double random_sum = 0;
  const int seeds = 10;
  for (int seed = 1; seed <= seeds; ++seed) {
    request.seed = seed;
    const Placement random_placement = tofa::make_mapper("random")->map(request);
    expect_valid(request, random_placement);
    const double hop_bytes = tofa::evaluate_placement(graph, topology, random_placement).hop_bytes;
    EXPECT_GT(hop_bytes, 144) << "seed " << seed;
    random_sum += hop_bytes;
  }
  EXPECT_NEAR(random_sum / seeds, 144.0 * 64 / 21, 0.05 * 144 * 64 / 21);
}

TEST(Tofa, SameRequestSamePlacementAcrossSeedsAndCache) {
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(85, 8);
  MappingRequest request = request_for(graph, topology);
  request.outage.assign(512, 0.0);
  for (int node = 3; node < 512; node += 4) request.outage[node] = 0.01;  // no run of 85
  const auto mapper = tofa::make_mapper("tofa");
  const std::vector<std::uint64_t> seeds = {1, 9, 12345, 4000000007u};
  std::vector<Placement> firsts;
  for (std::uint64_t seed : seeds) {
    request.seed = seed;
    const Placement first = mapper->map(request);  // may fill the target cache
    expect_valid(request, first);
    EXPECT_EQ(mapper->map(request), first) << "seed " << seed;  // served from the cache
    EXPECT_EQ(tofa::make_mapper("tofa")->map(request), first) << "seed " << seed;  // another mapper
    firsts.push_back(first);
  }
  // Back in reverse order, after the other seeds' runs: each seed's placement again.
  for (std::size_t i = seeds.size(); i-- > 0;) {
    request.seed = seeds[i];
    EXPECT_EQ(mapper->map(request), firsts[i]) << "seed " << seeds[i];
  }
  // The seed reaches Scotch: not every seed gives the same placement.
  EXPECT_GT(std::set<Placement>(firsts.begin(), firsts.end()).size(), 1u);
}

/// The process's thread count, from /proc/self/status.
int thread_count() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  return -1;
}

TEST(ScotchStrategies, MapOnTheCallingThreadOnly) {
  // Scotch 7 otherwise starts one spinning thread per core for every call:
  // inside slurmctld's scheduler that cost milliseconds per job under load.
  const Topology topology = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(512, 3);
  std::atomic<bool> mapping{true};
  std::atomic<int> most{0};
  const int before = thread_count() + 1;  // and the sampler
  std::thread sampler([&] {
    while (mapping) most = std::max(most.load(), thread_count());
  });
  for (const char* strategy : {"tofa", "tofa-compact", "mims", "anneal"}) {
    MappingRequest request = request_for(graph, topology);
    expect_valid(request, tofa::make_mapper(strategy)->map(request));
  }
  mapping = false;
  sampler.join();
  EXPECT_GT(most.load(), 0);
  EXPECT_LE(most.load(), before);
}

// ---------------------------------------------------------------- Scotch targets

/// Scotch's distance between terminals i and j must equal our hop distance
/// between nodes[i] and nodes[j]: this pins Scotch's terminal numbering
/// (first dimension fastest) to ours.
void expect_scotch_hops(const Topology& topology, const std::vector<int>& nodes) {
  tofa::scotch::Lock held = tofa::scotch::lock();
  const auto target = tofa::scotch::topology_target(topology, nodes, held);
  ASSERT_EQ(target->nodes(), nodes);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t j = 0; j < nodes.size(); ++j)
      ASSERT_EQ(target->distance(i, j, held), topology.hop_distance(nodes[i], nodes[j]))
          << topology.describe() << " terminals " << i << ", " << j;
}

std::vector<int> all_nodes(const Topology& topology) {
  std::vector<int> nodes(topology.node_count());
  std::iota(nodes.begin(), nodes.end(), 0);
  return nodes;
}

TEST(ScotchTarget, TerminalNumberingMatchesOurs) {
  // torusXD, mesh2D (also for 1D) and mesh3D; mixed wrap and more than 5
  // dimensions use a decomposition-defined target instead (not checked here).
  for (const char* spec : {"torus:5x3", "torus:4x3x5", "torus:3x2x2x3", "mesh:5x3", "mesh:4x3x2",
                           "mesh:7"}) {
    const Topology topology = Topology::from_spec(spec);
    expect_scotch_hops(topology, all_nodes(topology));
  }
}

// Strategies are parsed once per process (Scotch's parser leaks per parse).
TEST(ScotchTarget, MapStrategiesAreBuiltOnceForEachSetting) {
  const tofa::scotch::Lock held = tofa::scotch::lock();
  SCOTCH_Strat* first = tofa::scotch::map_strategy(SCOTCH_STRATDEFAULT, 8, 0.05, held);
  EXPECT_EQ(tofa::scotch::map_strategy(SCOTCH_STRATDEFAULT, 8, 0.05, held), first);
  EXPECT_NE(tofa::scotch::map_strategy(SCOTCH_STRATBALANCE, 2, 0.05, held), first);
}

TEST(ScotchTarget, SubArchitectureKeepsTheGivenNodeOrder) {
  expect_scotch_hops(Topology::from_spec("torus:4x3x5"), {59, 0, 17, 33, 2, 40});
  expect_scotch_hops(Topology::from_spec("mesh:4x3x2"), {23, 0, 5, 11});
}

TEST(ScotchTarget, DecompositionTargetsMapOntoTheirNodes) {
  tofa::scotch::Lock held = tofa::scotch::lock();
  const Topology mixed({4, 3}, {true, false});
  const auto target = tofa::scotch::topology_target(mixed, {11, 1, 6}, held);
  EXPECT_EQ(target->nodes(), (std::vector<int>{11, 1, 6}));
  // A sub-architecture numbers its terminals in the order of the node list.
  EXPECT_EQ(target->node_of_terminal(0), 11);
  EXPECT_EQ(target->node_of_terminal(1), 1);
  EXPECT_EQ(target->node_of_terminal(2), 6);
  EXPECT_EQ(error_text([&] { target->node_of_terminal(3); }),
            "Scotch returned terminal 3, which is not a node");
}

TEST(Tofa, FaultWeightedCostsFollowTheRoutes) {
  // Ring of 6, node 0 faulty (c = 1, penalty 100). Candidates 1, 0, 5 hold
  // no fault-free run of 2, so tofa maps onto the Equation 1 target. By
  // Equation 1 on the routes, 1-0 and 0-5 cost 101 each way, and 1-5 costs
  // 202: R(1,5) goes 1-0-5, through the faulty node (the long way round,
  // 1-2-3-4-5, is no route of the network). A heavy pair must share a link
  // with node 0 rather than land on 1 and 5.
  const Topology topology = Topology::from_spec("torus:6");
  std::vector<double> outage(6, 0.0);
  outage[0] = 0.5;
  EXPECT_EQ(tofa::fault_weighted_distance(topology, outage, 1, 5, tofa::FaultCost{}), 202);
  EXPECT_EQ(tofa::fault_weighted_distance(topology, outage, 5, 1, tofa::FaultCost{}), 202);
  const CommGraph graph = heavy_pair();
  MappingRequest request = request_for(graph, topology);
  request.candidate_nodes = {1, 0, 5};
  request.outage = outage;
  Placement placement = tofa::make_mapper("tofa")->map(request);
  std::sort(placement.begin(), placement.end());
  EXPECT_EQ(placement.front(), 0);
  EXPECT_NE(placement, (Placement{1, 5}));
}

TEST(Tofa, AFaultFreeRunIsMappedWithTheCostsOfItsRoutes) {
  // Ring of 8, node 0 faulty; candidates 6 7 1 2 form a fault-free run of 4
  // in candidate order, but 7-1 and 1-7 route through node 0 (202 each way)
  // while 6-7 and 1-2 cost 1. Four tasks in two heavy pairs (0,1) and (2,3)
  // joined by a light edge: each heavy pair must be kept on one side of 0.
  const Topology topology = Topology::from_spec("torus:8");
  const CommGraph graph = CommGraph::from_directed_edges(
      4, {{0, 1, 1e9, 1}, {2, 3, 1e9, 1}, {1, 2, 1, 1}});
  MappingRequest request = request_for(graph, topology);
  request.candidate_nodes = {6, 7, 1, 2};
  request.outage.assign(8, 0.0);
  request.outage[0] = 0.5;
  const Placement placement = tofa::make_mapper("tofa")->map(request);
  expect_valid(request, placement);
  auto side = [](int node) { return node >= 6 ? 0 : 1; };
  EXPECT_EQ(side(placement[0]), side(placement[1]));
  EXPECT_EQ(side(placement[2]), side(placement[3]));
}

TEST(Tofa, HeavyPairsStayNeighboursBesideAFaultyNode) {
  // tofa_cluster (d): 2x2x2 torus, 8 tasks in heavy pairs (100000 bytes)
  // joined by light links (10), one slot per node, node 2 faulty: every node
  // is needed, and the best placement by Equation 1 still keeps each heavy
  // pair on neighbours (the pair on node 2 costs 101 either way).
  const Topology topology = Topology::from_spec("torus:2x2x2");
  std::vector<CommEdge> edges;
  for (int t = 0; t < 8; t += 2) edges.push_back({t, t + 1, 100000, 1});
  for (int t = 1; t < 8; t += 2) edges.push_back({t, (t + 1) % 8, 10, 1});
  const CommGraph graph = CommGraph::from_directed_edges(8, edges);
  for (const std::vector<int>& order : {tofa::snake_order(topology), all_nodes(topology)}) {
    MappingRequest request = request_for(graph, topology);
    request.candidate_nodes = order;
    request.outage.assign(8, 0.0);
    request.outage[2] = 0.2;
    const Placement placement = tofa::make_mapper("tofa")->map(request);
    expect_valid(request, placement);
    for (int t = 0; t < 8; t += 2)
      EXPECT_EQ(topology.hop_distance(placement[t], placement[t + 1]), 1) << "tasks " << t;
  }
}

TEST(ScotchTarget, DecoTextHalvesByCoordinateThenByDistance) {
  // Terminals at x = 0, 9, 1, 8 on a line, distance |x - x'|: the cut along
  // x gives domain 2 terminals 0 and 2, domain 3 terminals 3 and 1.
  const std::vector<int> x{0, 9, 1, 8};
  const std::vector<std::vector<int>> coords{{0}, {9}, {1}, {8}};
  tofa::scotch::DistanceTable table{4, std::vector<long long>(16)};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) table.values[i * 4 + j] = std::abs(x[i] - x[j]);
  EXPECT_EQ(tofa::scotch::deco_text(table, coords),
            "deco\n0\n4 7\n"
            "0 1 4\n1 1 7\n2 1 5\n3 1 6\n"
            "9\n1 8\n8 1 7\n");
  // Distances that contradict the coordinates win: 0 is close to 9, 1 to 8.
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      table.values[i * 4 + j] = i == j ? 0 : (i + j == 1 || i + j == 5) ? 1 : 50;
  const std::string swapped = tofa::scotch::deco_text(table, coords);
  EXPECT_TRUE(swapped.find("0 1 4\n1 1 5\n") != std::string::npos ||
              swapped.find("0 1 6\n1 1 7\n") != std::string::npos)
      << swapped;  // terminals 0 and 1 in one half
  table.values[1] = 0;  // asymmetric and 0
  EXPECT_NE(error_text([&] { tofa::scotch::deco_text(table, coords); }), "<no exception>");
  EXPECT_NE(error_text([] { tofa::scotch::deco_text({1, {0}}, {{0}}); }), "<no exception>");
}

TEST(ScotchTarget, ErrorsNameTheCall) {
  EXPECT_EQ(error_text([] { tofa::scotch::check(2, "SCOTCH_graphMap"); }),
            "Scotch call SCOTCH_graphMap failed (return code 2)");
  EXPECT_NO_THROW(tofa::scotch::check(0, "SCOTCH_graphMap"));
}

// ---------------------------------------------------------------- capacity repair

TEST(CapacityRepair, MovesTheLightestTasksToTheNearestFreeNodes) {
  // 5 tasks all on node 0, 2 slots. Bytes to co-located tasks: t0 10, t1 15,
  // t2 5, t3 0, t4 0 -> t4 leaves (tie with t3, higher id), then t3, then t2
  // (5 < 10 < 15). Nodes 1, 3, 4, 16 are 1 hop from 0 on the 4x4x4 torus;
  // node 1 is faulty, so t4 and t3 go to node 3 and t2 to node 4.
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph =
      CommGraph::from_directed_edges(5, {{0, 1, 10, 1}, {1, 2, 5, 1}});
  MappingRequest request = request_for(graph, topology, 2);
  request.outage.assign(64, 0.0);
  request.outage[1] = 0.1;
  Placement placement{0, 0, 0, 0, 0};
  tofa::repair_capacity(request, {16, 4, 3, 1, 0}, 2, placement);
  EXPECT_EQ(placement, (Placement{0, 0, 4, 3, 3}));
}

}  // namespace

namespace {

// Issue 10: Scotch 7.0.3 crashed (SIGSEGV in _SCOTCHarchSubArchBuild) for
// any job that fits on one node other than node 0, e.g. a non-root user's
// `srun -w t2 -n 4`, or any 4-task job once node 0 had p > 0.
TEST(ScotchStrategies, JobOnOneNodeIsPlacedWithoutScotch) {
  const Topology torus = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = tofa_test::ring_graph(4);
  for (const char* name : {"tofa", "tofa-compact", "tofa-packed", "mims"}) {
    MappingRequest request;
    request.graph = &graph;
    request.topology = &torus;
    request.slots_per_node = 4;
    request.candidate_nodes = {1};
    EXPECT_EQ(tofa::make_mapper(name)->map(request), Placement(4, 1)) << name;
    request.candidate_nodes = {};
    request.outage.assign(torus.node_count(), 0.0);
    request.outage[0] = 0.02;
    const Placement placement = tofa::make_mapper(name)->map(request);
    EXPECT_EQ(std::set<int>(placement.begin(), placement.end()).size(), 1u) << name;
    EXPECT_NE(placement[0], 0) << name;
  }
}

// 64 tasks on 8-core nodes need 8 nodes. The candidates in id order start
// with 7 nodes far apart, then the 2x2x2 cube at (4,4,4) and a node beside
// it: tofa's first run takes the far nodes, tofa-packed the cube. With a cube node failing, tofa-packed keeps to fault-free nodes.
TEST(TofaPacked, TakesTheTightestFaultFreeBallOfNodes) {
  const Topology torus = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = random_sparse_graph(64, 3);
  MappingRequest request = request_for(graph, torus, 8);
  std::set<int> cube;
  for (int x : {4, 5})
    for (int y : {4, 5})
      for (int z : {4, 5}) cube.insert(torus.node_at({x, y, z}));
  for (const std::vector<int>& far : std::vector<std::vector<int>>{
           {0, 0, 0}, {3, 1, 0}, {6, 5, 1}, {1, 7, 2}, {5, 2, 3}, {2, 6, 3}, {0, 7, 3}})
    request.candidate_nodes.push_back(torus.node_at(far));
  request.candidate_nodes.insert(request.candidate_nodes.end(), cube.begin(), cube.end());
  const int beside = torus.node_at({6, 4, 4});  // next to the cube's (5,4,4)
  request.candidate_nodes.push_back(beside);
  std::sort(request.candidate_nodes.begin(), request.candidate_nodes.end());

  const Placement packed = tofa::make_mapper("tofa-packed")->map(request);
  expect_valid(request, packed);
  EXPECT_EQ(std::set<int>(packed.begin(), packed.end()), cube);
  const Placement first_run = tofa::make_mapper("tofa")->map(request);
  EXPECT_LT(tofa::evaluate_placement(graph, torus, packed).hop_bytes,
            tofa::evaluate_placement(graph, torus, first_run).hop_bytes);

  request.outage.assign(torus.node_count(), 0.0);
  const int failing = torus.node_at({4, 4, 4});
  request.outage[failing] = 0.02;
  const Placement around = tofa::make_mapper("tofa-packed")->map(request);
  expect_valid(request, around);
  std::set<int> expected = cube;
  expected.erase(failing);
  expected.insert(beside);
  EXPECT_EQ(std::set<int>(around.begin(), around.end()), expected);
}

TEST(ScotchStrategies, ScotchTargetOfOneNodeIsRefused) {
  const Topology torus = Topology::from_spec("torus:4x4");
  auto held = tofa::scotch::lock();
  EXPECT_THROW(tofa::scotch::topology_target(torus, {3}, held), tofa::Error);
}

// On a 4x4x4 torus the 7 nodes with the fewest hops between them (36) are
// a node and its 6 neighbours (or a 2x2x2 cube less a corner, also 36):
// node 0's set comes first.
TEST(ScotchAnchors, PackedNodesAreTheMostCompactSet) {
  const Topology torus = Topology::from_spec("torus:4x4x4");
  std::vector<int> all(64);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ(tofa::packed_anchor_nodes(torus, all, 7), (std::vector<int>{0, 1, 3, 4, 12, 16, 48}));
  // Candidates 20 to 63: every node below 36 = (0, 1, 2) lacks a neighbour
  // (in z = 0, or 16 to 19); 36 has its 6.
  const std::vector<int> upper(all.begin() + 20, all.end());
  EXPECT_EQ(tofa::packed_anchor_nodes(torus, upper, 7),
            (std::vector<int>{20, 32, 36, 37, 39, 40, 52}));
  EXPECT_EQ(error_text([&] { tofa::packed_anchor_nodes(torus, upper, 45); }),
            "packed anchor: 45 nodes wanted of 44 candidates");
}

// 85 DT tasks on 8-core nodes: the packed anchor takes ceil(85/8) = 11
// nodes, full but one; the gmap anchor spreads the job over the candidates.
TEST(ScotchAnchors, PackedAnchorKeepsToTheSlots) {
  const Topology torus = Topology::from_spec("torus:4x4x4:cores=8");
  const CommGraph graph = random_sparse_graph(85, 3);
  MappingRequest request;
  request.graph = &graph;
  request.topology = &torus;
  const Placement packed = tofa::scotch_packed_anchor(request);
  expect_valid(request, packed);
  EXPECT_EQ(std::set<int>(packed.begin(), packed.end()).size(), 11u);
  const Placement spread = tofa::scotch_gmap_anchor(request);
  expect_valid(request, spread);
  EXPECT_GT(std::set<int>(spread.begin(), spread.end()).size(), 11u);
  EXPECT_EQ(tofa::scotch_packed_anchor(request), packed);
}

TEST(MappingRequestChecks, FaultCostAndOutageAreValidated) {
  const Topology torus = Topology::from_spec("torus:4x4");
  const CommGraph graph = tofa_test::ring_graph(4);
  MappingRequest request;
  request.graph = &graph;
  request.topology = &torus;
  for (double bad : {std::nan(""), -1.0, HUGE_VAL}) {
    request.fault_cost.penalty = bad;
    EXPECT_THROW(tofa::make_mapper("greedy")->map(request), tofa::Error) << bad;
  }
  request.fault_cost = {};
  request.outage.assign(16, 0.0);
  request.outage[3] = std::nan("");
  EXPECT_THROW(tofa::make_mapper("tofa")->map(request), tofa::Error);
  request.outage[3] = 1.5;
  EXPECT_THROW(tofa::make_mapper("tofa")->map(request), tofa::Error);
}

}  // namespace
