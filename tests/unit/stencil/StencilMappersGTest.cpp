// The stencil family of seed Bunde: every strategy is a bijection onto the
// allocation, exact layouts on contiguous allocations, several ranks per node,
// RCB against INCIMPROVE on non-contiguous allocations, the rotation step,
// parameters and error texts.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "alloc/allocators.hpp"
#include "base/error.hpp"
#include "fixtures.hpp"
#include "graph/generators.hpp"
#include "map/stencil/strategies.hpp"
#include "metrics/metrics.hpp"

namespace {

using tofa::CommGraph;
using tofa::MappingRequest;
using tofa::Placement;
using tofa::Topology;

/// The stencil family from the registry (names starting with "stencil-").
std::vector<tofa::MapperInfo> stencil_strategies() {
  std::vector<tofa::MapperInfo> family;
  for (const tofa::MapperInfo& info : tofa::mapper_table())
    if (std::string(info.name).rfind("stencil-", 0) == 0) family.push_back(info);
  return family;
}

const std::vector<tofa::MapperInfo> kAll = stencil_strategies();

using tofa_test::error_text;

MappingRequest request_for(const CommGraph& graph, const Topology& topology, int slots,
                           std::vector<int> candidates) {
  MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.slots_per_node = slots;
  request.candidate_nodes = std::move(candidates);
  return request;
}

double average_hops(const MappingRequest& request, const Placement& placement) {
  return tofa::evaluate_placement(*request.graph, *request.topology, placement).average_hops;
}

double hops_of(std::unique_ptr<tofa::Mapper> (*create)(), const MappingRequest& request) {
  return average_hops(request, create()->map(request));
}

/// The nodes of the box `size` whose low corner is `origin` (coordinates taken
/// modulo the torus), listed in a scrambled but fixed order so that the
/// allocation order carries no geometry.
std::vector<int> box_nodes(const Topology& topology, std::vector<int> origin,
                           std::vector<int> size) {
  std::vector<int> nodes;
  for (int z = 0; z < size[2]; ++z)
    for (int y = 0; y < size[1]; ++y)
      for (int x = 0; x < size[0]; ++x)
        nodes.push_back(topology.node_at({(origin[0] + x) % topology.dims()[0],
                                          (origin[1] + y) % topology.dims()[1],
                                          (origin[2] + z) % topology.dims()[2]}));
  std::vector<int> scrambled;
  for (std::size_t k = 0; k < nodes.size(); ++k) scrambled.push_back(nodes[(k * 7) % nodes.size()]);
  return scrambled;
}

/// Checks that each of the first ceil(tasks/slots) candidates holds exactly
/// `slots` tasks (the last one the rest) and no other node holds any: the
/// mapping is a bijection between tasks and the allocation's ranks.
void expect_bijection(const MappingRequest& request, const Placement& placement,
                      const std::string& label) {
  const int tasks = request.graph->task_count();
  const int slots = request.slots_per_node;
  ASSERT_EQ(placement.size(), static_cast<std::size_t>(tasks)) << label;
  std::map<int, int> load;
  for (int node : placement) ++load[node];
  const int nodes = (tasks + slots - 1) / slots;
  ASSERT_EQ(load.size(), static_cast<std::size_t>(nodes)) << label;
  for (int k = 0; k < nodes; ++k) {
    const int expected = k + 1 < nodes ? slots : tasks - slots * (nodes - 1);
    EXPECT_EQ(load[request.candidate_nodes[k]], expected) << label << " candidate " << k;
  }
}

TEST(StencilMappers, EveryMapperIsABijectionOntoTheAllocation) {
  const Topology torus = Topology::from_spec("torus:8x6x10");
  const Topology mesh = Topology::from_spec("mesh:16x16");
  struct Case {
    const Topology* topology;
    std::vector<int> shape;
    int slots;
    tofa::Allocator allocator;
  };
  const std::vector<Case> cases = {
      {&torus, {4, 8, 4}, 1, tofa::allocate_mc1x1},
      {&torus, {5, 3, 7}, 1, tofa::allocate_snake_best_fit},
      {&torus, {4, 8, 4}, 4, tofa::allocate_snake_best_fit},
      {&torus, {6, 5, 3}, 4, tofa::allocate_mc1x1},  // 90 tasks: the last node gets 2
      {&mesh, {10, 10}, 1, tofa::allocate_mc1x1},
      {&mesh, {3, 17}, 2, tofa::allocate_snake_best_fit},
      {&mesh, {1, 1}, 1, tofa::allocate_mc1x1},
  };
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const Case& test = cases[c];
    const CommGraph graph = tofa::stencil_graph(test.shape);
    const int tasks = graph.task_count();
    const auto busy = tofa::fragmented_machine(*test.topology, test.allocator, 0.5, 20, 40 + c);
    const MappingRequest request = request_for(
        graph, *test.topology, test.slots,
        test.allocator(*test.topology, busy, (tasks + test.slots - 1) / test.slots));
    for (const tofa::MapperInfo& factory : kAll) {
      const Placement placement = factory.create()->map(request);
      expect_bijection(request, placement, std::string(factory.name) + " case " + std::to_string(c));
      EXPECT_EQ(placement, factory.create()->map(request)) << factory.name << " is not deterministic";
    }
  }
}

TEST(StencilMappers, UsesTheFirstCandidatesWhenThereAreMore) {
  const Topology torus = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa_test::stencil_graph(2, 2, 3);
  // No candidate list: all 64 nodes in id order, of which the first 12 are used.
  MappingRequest request = request_for(graph, torus, 1, {});
  std::vector<int> first12(12);
  for (int k = 0; k < 12; ++k) first12[k] = k;
  for (const tofa::MapperInfo& factory : kAll) {
    Placement placement = factory.create()->map(request);
    std::sort(placement.begin(), placement.end());
    EXPECT_EQ(placement, first12) << factory.name;
  }
}

TEST(StencilMappers, JobShapedContiguousBoxGivesOneHop) {
  // The job is 4x8x4; the allocation is a 4x8x4 box that crosses all three
  // seams of the torus (x 14,15,0,1; y 10,11,0..5; z 22,23,0,1), its nodes
  // listed in a scrambled order. Every stencil edge needs at least one hop
  // with one rank per node, so 1.0 is optimal; ROWMAJOR, RCB and every
  // geometric strategy reach it. BASELINE follows the scrambled list.
  const Topology torus = Topology::from_spec("torus:16x12x24");
  const CommGraph graph = tofa_test::stencil_graph(4, 8, 4);
  const MappingRequest request =
      request_for(graph, torus, 1, box_nodes(torus, {14, 10, 22}, {4, 8, 4}));
  for (const tofa::MapperInfo& factory : kAll) {
    const double hops = hops_of(factory.create, request);
    if (std::string(factory.name) == "stencil-baseline" ||
        std::string(factory.name) == "stencil-grouping")
      EXPECT_GT(hops, 1.5) << factory.name;
    else
      EXPECT_DOUBLE_EQ(hops, 1.0) << factory.name;
  }
  // The box in the job's own row-major order: BASELINE is perfect too.
  const MappingRequest ordered = request_for(graph, torus, 1, [&] {
    std::vector<int> nodes;
    for (int z = 0; z < 4; ++z)
      for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 4; ++x) nodes.push_back(torus.node_at({(14 + x) % 16, (10 + y) % 12, (22 + z) % 24}));
    return nodes;
  }());
  EXPECT_DOUBLE_EQ(hops_of(tofa::make_stencil_baseline_mapper, ordered), 1.0);
}

TEST(StencilMappers, RotationTurnsAPermutedBoxIntoOneHop) {
  // Job 4x8x4 on an 8x4x4 box (x and y swapped): with the rotation step the
  // job's long axis lies along the box's, and ROWMAJOR and RCB reach 1.0;
  // without it they cannot (the job's 8-long rows must fold into 4-long ones).
  const Topology torus = Topology::from_spec("torus:16x12x24");
  const CommGraph graph = tofa_test::stencil_graph(4, 8, 4);
  MappingRequest request = request_for(graph, torus, 1, box_nodes(torus, {3, 2, 1}, {8, 4, 4}));
  EXPECT_DOUBLE_EQ(hops_of(tofa::make_stencil_rowmajor_mapper, request), 1.0);
  EXPECT_DOUBLE_EQ(hops_of(tofa::make_stencil_rcb_mapper, request), 1.0);
  request.parameters["rotate"] = "no";
  EXPECT_GT(hops_of(tofa::make_stencil_rowmajor_mapper, request), 1.0);
  EXPECT_GT(hops_of(tofa::make_stencil_rcb_mapper, request), 1.0);
}

TEST(StencilMappers, RotationNeverHurtsRowMajorOnTheSeedsJobShapes) {
  // Every job shape of the seed's Figure 10 (32 to 2K cores; larger shapes
  // behave the same but take longer), one rank per node, on a Cielo-sized
  // 16x12x24 torus, allocated as a box whose sides are a permutation of the
  // job's: ROWMAJOR with rotation is never worse than without, and is exactly
  // 1.0. (On ragged non-contiguous allocations the seed's rotation rule can
  // hurt ROWMAJOR, as the seed itself observed; see the README.)
  const Topology torus = Topology::from_spec("torus:16x12x24");
  const int figure10[][3] = {{1, 2, 1}, {1, 2, 2}, {2, 2, 2}, {2, 4, 2}, {2, 4, 4}, {1, 4, 1},
                             {1, 4, 2}, {2, 4, 2}, {2, 8, 2}, {2, 8, 4}, {2, 4, 1}, {4, 4, 2},
                             {4, 8, 2}, {4, 8, 4}, {4, 4, 4}, {4, 8, 8}, {2, 8, 2}, {4, 16, 4},
                             {4, 16, 8}, {4, 8, 2}, {8, 8, 4}, {8, 16, 4}, {8, 16, 8}, {4, 8, 8},
                             {8, 8, 8}, {8, 16, 8}};
  const int permutations[6][3] = {{0, 1, 2}, {1, 0, 2}, {0, 2, 1}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}};
  int cases = 0;
  for (const auto& shape : figure10) {
    const CommGraph graph = tofa_test::stencil_graph(shape[0], shape[1], shape[2]);
    for (const auto& p : permutations) {
      const std::vector<int> box{shape[p[0]], shape[p[1]], shape[p[2]]};
      if (box[0] > 16 || box[1] > 12 || box[2] > 24) continue;
      MappingRequest request = request_for(graph, torus, 1, box_nodes(torus, {5, 3, 7}, box));
      const double rotated = hops_of(tofa::make_stencil_rowmajor_mapper, request);
      request.parameters["rotate"] = "no";
      const double plain = hops_of(tofa::make_stencil_rowmajor_mapper, request);
      EXPECT_LE(rotated, plain) << shape[0] << "x" << shape[1] << "x" << shape[2];
      EXPECT_DOUBLE_EQ(rotated, 1.0) << shape[0] << "x" << shape[1] << "x" << shape[2];
      ++cases;
    }
  }
  EXPECT_GT(cases, 100);
}

TEST(StencilMappers, SeveralRanksPerNode) {
  // Job 4x4x4, 8 ranks per node, the 2x2x2 box of nodes at the origin listed
  // row-major. GROUPING puts one 2x2x2 block on each node (block (bx,by,bz) on
  // node (bx,by,bz)), so only the 3 planes between blocks cost a hop:
  // 3 axes x 16 edges = 48 of the 144 edges -> 1/3. RCB halves x, y and z
  // once each and reaches the same. BASELINE puts x-rows 0..1 / 2..3 of a
  // z-slab on a node: node(x,y,z) = y/2 + 2z, i.e. (y/2, z%2, z/2): y-edges
  // 1->2 cost 1 (16 edges), z-edges 0->1, 1->2, 2->3 cost 1, 2, 1 (16 each),
  // x-edges 0: (16 + 64) / 144 = 5/9.
  const Topology torus = Topology::from_spec("torus:8x8x8");
  const CommGraph graph = tofa_test::stencil_graph(4, 4, 4);
  std::vector<int> box;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) box.push_back(torus.node_at({x, y, z}));
  const MappingRequest request = request_for(graph, torus, 8, box);
  EXPECT_DOUBLE_EQ(hops_of(tofa::make_stencil_grouping_mapper, request), 1.0 / 3);
  EXPECT_DOUBLE_EQ(hops_of(tofa::make_stencil_rcb_mapper, request), 1.0 / 3);
  EXPECT_DOUBLE_EQ(hops_of(tofa::make_stencil_incimprove_mapper, request), 1.0 / 3);
  EXPECT_DOUBLE_EQ(hops_of(tofa::make_stencil_baseline_mapper, request), 80.0 / 144);
}

TEST(StencilMappers, RcbIsCloseToIncimproveOnNonContiguousAllocations) {
  // The seed's simulation in small: 16x16 mesh, half-full with earlier jobs
  // of which about half left, square-ish 2D jobs (x = largest divisor of the
  // task count not above its square root, sides at most 16), allocated by
  // MC1x1 or snake best fit. INCIMPROVE starts from RCB and only makes
  // improving swaps, so it is never worse; RCB stays close: over these 24
  // allocations the mean gap is 4.3% and the largest 10.8%, and we require
  // a mean below 6% and every gap below 15%.
  const Topology mesh = Topology::from_spec("mesh:16x16");
  double gap_sum = 0;
  int trials = 0;
  for (tofa::Allocator allocator : {tofa::allocate_mc1x1, tofa::allocate_snake_best_fit}) {
    for (int trial = 0; trial < 12; ++trial) {
      int tasks = 16 + (trial * 37) % 113, x = 1;
      while (true) {
        for (int d = 1; d * d <= tasks; ++d)
          if (tasks % d == 0) x = d;
        if (tasks / x <= 16) break;
        ++tasks;
      }
      const CommGraph graph = tofa::stencil_graph({x, tasks / x});
      const auto busy = tofa::fragmented_machine(mesh, allocator, 0.6, 24, 100 + trial);
      const MappingRequest request = request_for(graph, mesh, 1, allocator(mesh, busy, tasks));
      const double rcb = hops_of(tofa::make_stencil_rcb_mapper, request);
      const double incimprove = hops_of(tofa::make_stencil_incimprove_mapper, request);
      ASSERT_LE(incimprove, rcb) << "trial " << trial;
      const double gap = (rcb - incimprove) / incimprove;
      EXPECT_LT(gap, 0.15) << "trial " << trial << ": " << x << "x" << tasks / x << " rcb " << rcb
                           << " incimprove " << incimprove;
      gap_sum += gap;
      ++trials;
    }
  }
  EXPECT_LT(gap_sum / trials, 0.06);
}

TEST(StencilMappers, RcbBeatsBaselineOnFragmentedMachines) {
  // Not a claim of the seed's tables but of its conclusion: RCB's average hops
  // are far below BASELINE's on non-contiguous allocations.
  const Topology torus = Topology::from_spec("torus:16x12x24");
  const CommGraph graph = tofa_test::stencil_graph(8, 16, 8);
  for (tofa::Allocator allocator : {tofa::allocate_snake_best_fit}) {
    const auto busy = tofa::fragmented_machine(torus, allocator, 0.5, 200, 3);
    const MappingRequest request = request_for(graph, torus, 1, allocator(torus, busy, 1024));
    EXPECT_LT(hops_of(tofa::make_stencil_rcb_mapper, request),
              0.5 * hops_of(tofa::make_stencil_baseline_mapper, request));
  }
}

TEST(StencilMappers, IncimproveBoundsAndOrderedCandidates) {
  const Topology mesh = Topology::from_spec("mesh:16x16");
  const CommGraph graph = tofa::stencil_graph({8, 9});
  const auto busy = tofa::fragmented_machine(mesh, tofa::allocate_mc1x1, 0.6, 24, 5);
  MappingRequest request = request_for(graph, mesh, 1, tofa::allocate_mc1x1(mesh, busy, 72));
  const Placement rcb = tofa::make_stencil_rcb_mapper()->map(request);
  request.parameters["max-swaps"] = "0";
  EXPECT_EQ(tofa::make_stencil_incimprove_mapper()->map(request), rcb);
  request.parameters["max-swaps"] = "1";
  const Placement one_swap = tofa::make_stencil_incimprove_mapper()->map(request);
  int moved = 0;
  for (std::size_t t = 0; t < rcb.size(); ++t) moved += one_swap[t] != rcb[t];
  EXPECT_EQ(moved, 2);
  request.parameters.erase("max-swaps");
  request.parameters["max-evaluations"] = "0";
  EXPECT_EQ(tofa::make_stencil_incimprove_mapper()->map(request), rcb);
  request.parameters.erase("max-evaluations");

  // ORDERED over all 48 orders is never worse than over the seed's 16, which
  // is never worse than ROWMAJOR or COLMAJOR (both among the 16).
  const double all = hops_of(tofa::make_stencil_ordered_mapper, request);
  request.parameters["orders"] = "rowcol";
  const double rowcol = hops_of(tofa::make_stencil_ordered_mapper, request);
  EXPECT_LE(all, rowcol);
  EXPECT_LE(rowcol, hops_of(tofa::make_stencil_rowmajor_mapper, request));
  EXPECT_LE(rowcol, hops_of(tofa::make_stencil_colmajor_mapper, request));
}

TEST(StencilMappers, ErrorTexts) {
  const Topology torus = Topology::from_spec("torus:4x4x4");
  const CommGraph ring = tofa_test::ring_graph(8);
  MappingRequest request = request_for(ring, torus, 1, {});
  EXPECT_EQ(error_text([&] { tofa::make_stencil_rcb_mapper()->map(request); }),
            "stencil-rcb: the communication graph is not a recognizable XxYxZ stencil; give the "
            "job shape with the parameter stencil=XxYxZ");
  request.parameters["stencil"] = "2x4";  // any graph can be mapped as a given shape
  // ... onto the first 8 candidates, n0..n7: a 4x2 block, which holds the
  // 2x4 shape turned so that every edge of the stencil is one hop.
  const std::set<int> first_eight = {0, 1, 2, 3, 4, 5, 6, 7};
  const Placement as_2x4 = tofa::make_stencil_rcb_mapper()->map(request);
  EXPECT_EQ(std::set<int>(as_2x4.begin(), as_2x4.end()), first_eight);
  ASSERT_EQ(as_2x4.size(), 8u);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 2; ++x) {
      if (x + 1 < 2) {
        EXPECT_EQ(torus.hop_distance(as_2x4[x + 2 * y], as_2x4[x + 1 + 2 * y]), 1);
      }
      if (y + 1 < 4) {
        EXPECT_EQ(torus.hop_distance(as_2x4[x + 2 * y], as_2x4[x + 2 * (y + 1)]), 1);
      }
    }
  request.parameters["rotate"] = "maybe";
  EXPECT_EQ(error_text([&] { tofa::make_stencil_rowmajor_mapper()->map(request); }),
            "stencil-rowmajor: parameter rotate: expected yes or no, found 'maybe'");
  // BASELINE and GROUPING never rotate, so they never read it.
  const Placement baseline = tofa::make_stencil_baseline_mapper()->map(request);
  EXPECT_EQ(std::set<int>(baseline.begin(), baseline.end()), first_eight);
  request.parameters.erase("rotate");
  EXPECT_EQ(tofa::make_stencil_baseline_mapper()->map(request), baseline);
  request.parameters["max-swaps"] = "-3";
  EXPECT_EQ(error_text([&] { tofa::make_stencil_incimprove_mapper()->map(request); }),
            "stencil-incimprove: parameter max-swaps: expected a non-negative integer, found '-3'");
  request.parameters.erase("max-swaps");
  request.parameters["time-limit"] = "soon";
  EXPECT_EQ(error_text([&] { tofa::make_stencil_incimprove_mapper()->map(request); }),
            "stencil-incimprove: parameter time-limit: expected a non-negative number, found 'soon'");
  request.parameters.erase("time-limit");
  request.parameters["orders"] = "some";
  EXPECT_EQ(error_text([&] { tofa::make_stencil_ordered_mapper()->map(request); }),
            "stencil-ordered: parameter orders: expected all or rowcol, found 'some'");
  request.parameters.erase("orders");
  request.parameters["group"] = "3";
  EXPECT_EQ(error_text([&] { tofa::make_stencil_grouping_mapper()->map(request); }),
            "stencil-grouping: group 3 does not divide the job's shape 2x4x1");
  request.parameters["group"] = "2x2";
  const Placement grouped = tofa::make_stencil_grouping_mapper()->map(request);
  EXPECT_EQ(std::set<int>(grouped.begin(), grouped.end()), first_eight);

  const CommGraph big = tofa_test::stencil_graph(4, 4, 5);
  MappingRequest full = request_for(big, torus, 1, {});
  EXPECT_EQ(error_text([&] { tofa::make_stencil_overlay_mapper()->map(full); }),
            "80 tasks do not fit on 64 nodes with 1 slots each");
}

}  // namespace
