// The torus3d strategy (Slurm 26.05 topology/torus3d): shapes and anchors,
// the box choice with its fragmentation rule, the wrap-aware Z-order, the
// refusals, and validity on random requests. Expected placements are worked
// out by hand from the rules quoted in common/map/torus3d/strategy.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "map/mapper.hpp"
#include "map/torus3d/box_choice.hpp"
#include "map/torus3d/shapes.hpp"
#include "map/torus3d/zorder.hpp"

namespace {

using tofa::CommGraph;
using tofa::MappingRequest;
using tofa::Placement;
using tofa::Topology;
using tofa::torus3d::Triple;
using tofa_test::error_text;

CommGraph tasks_graph(int tasks) { return tofa_test::random_sparse_graph(tasks, 7); }

MappingRequest request_for(const CommGraph& graph, const Topology& topology, int slots = 1,
                           const std::string& shapes = "") {
  MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.slots_per_node = slots;
  if (!shapes.empty()) request.parameters["shapes"] = shapes;
  return request;
}

Placement map(const MappingRequest& request) {
  const Placement placement = tofa::make_mapper("torus3d")->map(request);
  tofa::check_placement(request, placement);
  return placement;
}

/// Every node of the topology except `busy`.
std::vector<int> all_but(const Topology& topology, const std::vector<int>& busy) {
  std::vector<int> free;
  for (int node = 0; node < topology.node_count(); ++node)
    if (std::find(busy.begin(), busy.end(), node) == busy.end()) free.push_back(node);
  return free;
}

// ---------------------------------------------------------------- shapes

TEST(Torus3dShapes, AnchorsWalkFromTheSeedBySpacingAroundTheAxis) {
  EXPECT_EQ(tofa::torus3d::anchor_positions(4, 2, 0), (std::vector<int>{0, 2}));
  EXPECT_EQ(tofa::torus3d::anchor_positions(4, 2, 1), (std::vector<int>{1, 3}));
  EXPECT_EQ(tofa::torus3d::anchor_positions(3, 2, 0), (std::vector<int>{0, 2, 1}));
  EXPECT_EQ(tofa::torus3d::anchor_positions(6, 4, 0), (std::vector<int>{0, 4, 2}));
  EXPECT_EQ(tofa::torus3d::anchor_positions(5, 5, 3), (std::vector<int>{3}));
  EXPECT_EQ(tofa::torus3d::anchor_positions(4, 1, 0), (std::vector<int>{0, 1, 2, 3}));
}

TEST(Torus3dShapes, ParsesDimsSpacingAndSeed) {
  const tofa::torus3d::Grid grid = tofa::torus3d::grid_of(Topology::from_spec("torus:4x4x2"));
  const auto shapes = tofa::torus3d::parse_shapes("2x2x2,4x2x1/2x2x1,4x2x1@1x0x0,1x1x1/1x1x1@3x3x1", grid);
  ASSERT_EQ(shapes.size(), 4u);
  EXPECT_EQ(shapes[0].spacing, (Triple{2, 2, 2}));
  EXPECT_EQ(shapes[1].spacing, (Triple{2, 2, 1}));
  EXPECT_EQ(shapes[2].seed, (Triple{1, 0, 0}));
  EXPECT_EQ(shapes[3].seed, (Triple{3, 3, 1}));
  EXPECT_EQ(shapes[1].text(), "4x2x1/2x2x1");
  EXPECT_EQ(shapes[2].text(), "4x2x1@1x0x0");
  EXPECT_EQ(shapes[3].text(), "1x1x1@3x3x1");  // spacing equal to dims is the default
}

TEST(Torus3dShapes, OrderBySizeKeepsTheGivenOrderOfEqualSizes) {
  const tofa::torus3d::Grid grid = tofa::torus3d::grid_of(Topology::from_spec("torus:4x4x4"));
  const auto shapes =
      tofa::torus3d::order_by_size(tofa::torus3d::parse_shapes("4x4x2,4x1x1,2x2x1,1x1x1", grid));
  std::vector<std::string> names;
  for (const auto& shape : shapes) names.push_back(shape.text());
  EXPECT_EQ(names, (std::vector<std::string>{"1x1x1", "4x1x1", "2x2x1", "4x4x2"}));
}

TEST(Torus3dShapes, DefaultsAreTheDocumentedExampleShapesThatFit) {
  auto texts = [](const std::string& spec) {
    std::vector<std::string> names;
    for (const auto& shape :
         tofa::torus3d::default_shapes(tofa::torus3d::grid_of(Topology::from_spec(spec))))
      names.push_back(shape.text());
    return names;
  };
  EXPECT_EQ(texts("torus:8x8x8"), (std::vector<std::string>{"2x2x1", "2x2x2", "4x4x2"}));
  EXPECT_EQ(texts("torus:4x2x2"), (std::vector<std::string>{"2x2x1", "2x2x2"}));
  EXPECT_EQ(texts("torus:4x4"), (std::vector<std::string>{"2x2x1"}));
  EXPECT_EQ(texts("torus:8"), (std::vector<std::string>{}));
}

TEST(Torus3dShapes, BadShapesAreRefusedWithTheRule) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(8);
  auto refusal = [&](const std::string& shapes) {
    MappingRequest request = request_for(graph, topology, 1, shapes);
    request.parameters["shapes"] = shapes;
    return error_text([&] { map(request); });
  };
  const std::string syntax =
      ": expected AxBxC[/SXxSYxSZ][@XxYxZ] (dims, anchor spacing, anchor seed)";
  EXPECT_EQ(refusal("2x2"), "torus3d: shape '2x2'" + syntax);
  EXPECT_EQ(refusal("2x2x2x1"), "torus3d: shape '2x2x2x1'" + syntax);
  EXPECT_EQ(refusal("2x-2x2"), "torus3d: shape '2x-2x2'" + syntax);
  EXPECT_EQ(refusal("2x2x2@1x1x1/1x1x1"), "torus3d: shape '2x2x2@1x1x1/1x1x1'" + syntax);
  EXPECT_EQ(refusal("2x2x2/"), "torus3d: shape '2x2x2/'" + syntax);
  EXPECT_EQ(refusal("99999999x1x1"), "torus3d: shape '99999999x1x1'" + syntax);
  EXPECT_EQ(refusal("2x2x2,,4x4x2"), "torus3d: empty shape in shapes='2x2x2,,4x4x2'" + syntax);
  EXPECT_EQ(refusal(""), "torus3d: empty shape in shapes=''" + syntax);
  EXPECT_EQ(refusal("5x1x1"),
            "torus3d: shape '5x1x1': each dimension must be from 1 to the topology's (4x4x4)");
  EXPECT_EQ(refusal("0x2x2"),
            "torus3d: shape '0x2x2': each dimension must be from 1 to the topology's (4x4x4)");
  EXPECT_EQ(refusal("2x2x2/0x2x2"),
            "torus3d: shape '2x2x2/0x2x2': anchor spacing must be from 1 to the topology's "
            "dimension on each axis (4x4x4)");
  EXPECT_EQ(refusal("2x2x2@0x4x0"),
            "torus3d: shape '2x2x2@0x4x0': anchor seed must be below the topology's dimension on "
            "each axis (4x4x4)");
}

TEST(Torus3dShapes, OnlyTopologiesOfUpToThreeDimensions) {
  const Topology topology = Topology::from_spec("torus:2x2x2x2");
  const CommGraph graph = tasks_graph(4);
  EXPECT_EQ(error_text([&] { map(request_for(graph, topology)); }),
            "torus3d: the topology has 4 dimensions; torus3d places jobs on tori of at most 3");
  const Topology line = Topology::from_spec("torus:8");
  EXPECT_EQ(error_text([&] { map(request_for(graph, line)); }),
            "torus3d: none of the default shapes 2x2x1, 2x2x2, 4x4x2 fits in the 8x1x1 topology; "
            "give --param shapes=AxBxC,...");
  EXPECT_EQ(map(request_for(graph, line, 1, "4x1x1")), (Placement{0, 1, 2, 3}));
}

// ---------------------------------------------------------------- Z-order

TEST(Torus3dZOrder, ArcsFollowSlurmsRule) {
  using tofa::torus3d::min_wrap_span;
  auto arc = [](std::vector<char> used) {
    const auto a = min_wrap_span(used);
    return std::vector<int>{a.start, a.span};
  };
  EXPECT_EQ(arc({0, 0, 1, 0}), (std::vector<int>{2, 1}));
  EXPECT_EQ(arc({1, 1, 1, 1}), (std::vector<int>{0, 4}));
  EXPECT_EQ(arc({0, 1, 1, 0}), (std::vector<int>{1, 2}));
  EXPECT_EQ(arc({1, 0, 0, 1}), (std::vector<int>{3, 2}));          // wraps
  EXPECT_EQ(arc({1, 0, 0, 0, 1, 1}), (std::vector<int>{4, 3}));    // wraps
  // Slurm's test 2*(last-first) < length+count keeps the linear span here,
  // though {3,0,1} (start 3, span 3) is shorter.
  EXPECT_EQ(arc({1, 1, 0, 1}), (std::vector<int>{0, 4}));
  EXPECT_EQ(arc({1, 0, 1}), (std::vector<int>{0, 3}));
}

TEST(Torus3dZOrder, MortonBitsAreCappedAtSixteenTakenFromTheLargestAxisFirst) {
  const auto small = tofa::torus3d::morton_bits({4, 2, 1});
  EXPECT_EQ(small.bits, (Triple{2, 1, 0}));
  EXPECT_EQ(small.shift, (Triple{0, 0, 0}));
  // 6+6+6 = 18 bits: x loses one (5,6,6), then y, which ties z (5,5,6).
  const auto big = tofa::torus3d::morton_bits({64, 64, 33});
  EXPECT_EQ(big.bits, (Triple{5, 5, 6}));
  EXPECT_EQ(big.shift, (Triple{1, 1, 0}));
  const auto line = tofa::torus3d::morton_bits({1 << 20, 1, 1});
  EXPECT_EQ(line.bits, (Triple{16, 0, 0}));
  EXPECT_EQ(line.shift, (Triple{4, 0, 0}));
}

TEST(Torus3dZOrder, CodesInterleaveXYZFromTheLowestBit) {
  using tofa::torus3d::morton_code;
  EXPECT_EQ(morton_code({1, 0, 0}, {1, 1, 1}), 1u);
  EXPECT_EQ(morton_code({0, 1, 0}, {1, 1, 1}), 2u);
  EXPECT_EQ(morton_code({0, 0, 1}, {1, 1, 1}), 4u);
  // x bits 0b10, y 0b11, bits {2,2,0}: x0 y0 x1 y1 -> 0 + 2 + 4 + 8.
  EXPECT_EQ(morton_code({2, 3, 0}, {2, 2, 0}), 14u);
  // Bits {1,0,2}: x0 z0 z1; z = 0b10 -> 4.
  EXPECT_EQ(morton_code({0, 0, 2}, {1, 0, 2}), 4u);
}

// ---------------------------------------------------------------- placements

TEST(Torus3d, EmptyTorusAndShape222GiveTheFirstBoxInZOrder) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(8);
  // Node id = x + 4y + 16z; rank = x + 2y + 4z inside the box at the origin.
  const Placement expected{0, 1, 4, 5, 16, 17, 20, 21};
  EXPECT_EQ(map(request_for(graph, topology, 1, "2x2x2")), expected);
  // The default shapes: every 2x2x2 box breaks one free 4x4x2, so the first wins.
  EXPECT_EQ(map(request_for(graph, topology)), expected);
}

TEST(Torus3d, ZOrderOfA4x4x1Box) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(16);
  // Bits x0 y0 x1 y1: the four 2x2 quadrants in Z order, each in Z order.
  EXPECT_EQ(map(request_for(graph, topology, 1, "4x4x1")),
            (Placement{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}));
}

TEST(Torus3d, WholeTorusUsesAbsoluteCoordinates) {
  const Topology topology = Topology::from_spec("torus:4x2x2");
  const CommGraph graph = tasks_graph(16);
  // Bits x0 y z x1: x = 0,1 over all y, z first, then x = 2,3.
  EXPECT_EQ(map(request_for(graph, topology, 1, "4x2x2")),
            (Placement{0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15}));
}

TEST(Torus3d, WrappingBoxWhenItIsTheOnlyFreeOne) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(8);
  MappingRequest request = request_for(graph, topology, 1, "2x2x2/1x1x1");
  // The box from (3,3,3) over the wrap, plus free nodes that form no box.
  request.candidate_nodes = {0, 3, 12, 15, 48, 51, 60, 63, 5, 26, 42};
  // Each axis's arc {3,0} starts at 3, so relative x is 0 for 3 and 1 for 0.
  EXPECT_EQ(map(request), (Placement{63, 60, 51, 48, 15, 12, 3, 0}));
}

TEST(Torus3d, DefaultAnchorsWrapWhenTheAxisIsNotAMultipleOfTheShape) {
  const Topology topology = Topology::from_spec("torus:3x3x3");
  const CommGraph graph = tasks_graph(8);
  MappingRequest request = request_for(graph, topology, 1, "2x2x2");
  // Anchors 0, 2, 1 on each axis; only the box at (2,2,2) is free. Each axis
  // uses {0,2}: 2*(2-0) < 3+2, so Slurm keeps the linear arc from 0 and x=0
  // ranks before x=2 (id = x + 3y + 9z).
  request.candidate_nodes = {0, 2, 6, 8, 18, 20, 24, 26};
  EXPECT_EQ(map(request), (Placement{0, 2, 6, 8, 18, 20, 24, 26}));
}

TEST(Torus3d, AMeshAxisKeepsBoxesFromCrossingItsEdge) {
  const Topology mesh = Topology::from_spec("mesh:3x3x3");
  const CommGraph graph = tasks_graph(8);
  MappingRequest request = request_for(graph, mesh, 1, "2x2x2");
  request.candidate_nodes = {0, 2, 6, 8, 18, 20, 24, 26};
  EXPECT_EQ(error_text([&] { map(request); }),
            "torus3d: no box of shape 2x2x2 is free for the 8 nodes that 8 tasks need at 1 "
            "slots per node, on the 3x3x3 topology (Slurm keeps such a job pending)");
  request.candidate_nodes.clear();
  EXPECT_EQ(map(request), (Placement{0, 1, 3, 4, 9, 10, 12, 13}));
}

TEST(Torus3d, PrefersTheBoxThatBreaksNoFreeLargerBox) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(4);
  MappingRequest request = request_for(graph, topology);
  // Node (2,0,1) busy. Every 2x2x1 box at x=0 breaks a free 2x2x2; the one
  // at (2,0,0) lies in the 2x2x2 that (2,0,1) already broke.
  request.candidate_nodes = all_but(topology, {18});
  EXPECT_EQ(map(request), (Placement{2, 3, 6, 7}));
  request.candidate_nodes.clear();
  EXPECT_EQ(map(request), (Placement{0, 1, 4, 5}));
}

TEST(Torus3d, ReproducesTheChoicesSeenOnASlurm2605MiniCluster) {
  // deps/README.md: 16 slurmd t1..t16 on a 4x2x2 torus with these placements.
  const Topology topology = Topology::from_spec("torus:4x2x2");
  const std::string shapes = "2x1x1,2x2x1,2x2x2,4x2x2";
  const CommGraph four = tasks_graph(4);
  MappingRequest request = request_for(four, topology, 1, shapes);
  EXPECT_EQ(map(request), (Placement{0, 1, 4, 5}));  // srun -N 4: t1 t2 t5 t6
  request.candidate_nodes = all_but(topology, {1});  // t2 DOWN
  EXPECT_EQ(map(request), (Placement{8, 9, 12, 13}));  // t9 t10 t13 t14
  const CommGraph three = tasks_graph(3);
  EXPECT_EQ(error_text([&] { map(request_for(three, topology, 1, shapes)); }),
            "torus3d: no shape has the 3 nodes that 3 tasks need at 1 slots per node (shapes "
            "tried: 2x1x1 = 2, 2x2x1 = 4, 2x2x2 = 8, 4x2x2 = 16; Slurm refuses such a job)");
}

TEST(Torus3d, TasksFillTheBoxEvenlyInRankOrder) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(14);
  // 14 tasks at 4 slots: 4 nodes (2x2x1), 4+4+3+3 tasks along the Z order.
  EXPECT_EQ(map(request_for(graph, topology, 4)),
            (Placement{0, 0, 0, 0, 1, 1, 1, 1, 4, 4, 4, 5, 5, 5}));
}

TEST(Torus3d, ALargerAllocationRunsTheStepOnItsLowestIndexNodesInRankOrder) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(6);
  MappingRequest request = request_for(graph, topology, 1, "4x4x1");
  request.parameters["nodes"] = "16";
  // The step takes nodes 0-5 of the 4x4x1 box; the allocation's Z order
  // (0, 1, 4, 5, 2, 3, 6, 7, ...) orders them.
  EXPECT_EQ(map(request), (Placement{0, 1, 4, 5, 2, 3}));
  for (const char* bad : {"5", "x", "16x", "-16"}) {
    request.parameters["nodes"] = bad;
    EXPECT_EQ(error_text([&] { map(request); }),
              std::string("torus3d: --param nodes='") + bad +
                  "': expected a node count of at least 6 (the nodes the tasks need)");
  }
}

TEST(Torus3d, RefusesWhenNoBoxOfTheSizeIsFree) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(8);
  MappingRequest request = request_for(graph, topology, 1, "2x2x2/1x1x1,4x2x1");
  // Two consecutive positions of an axis of 4 hold one even one, so every
  // 2x2x2 and 4x2x1 box holds a busy node: those with x and y even.
  std::vector<int> busy;
  for (int node = 0; node < 64; ++node) {
    const std::vector<int> c = topology.coords(node);
    if (c[0] % 2 == 0 && c[1] % 2 == 0) busy.push_back(node);
  }
  request.candidate_nodes = all_but(topology, busy);
  EXPECT_EQ(error_text([&] { map(request); }),
            "torus3d: no box of shape 2x2x2/1x1x1, 4x2x1 is free for the 8 nodes that 8 tasks "
            "need at 1 slots per node, on the 4x4x4 topology (Slurm keeps such a job pending)");
}

TEST(Torus3d, TakesTheFirstShapeOfTheSizeThatHasAFreeBox) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tasks_graph(4);
  // 4x1x1 comes first and is free at the origin; 2x2x1 would be too.
  EXPECT_EQ(map(request_for(graph, topology, 1, "4x4x2,4x1x1,2x2x1")), (Placement{0, 1, 2, 3}));
  // With x=1 busy on every row of the z=0 plane, 4x1x1 boxes remain at z>0
  // (anchor order x, y, then z innermost: the first is (0,0,1)).
  MappingRequest request = request_for(graph, topology, 1, "4x1x1,2x2x1");
  request.candidate_nodes = all_but(topology, {1, 5, 9, 13});
  EXPECT_EQ(map(request), (Placement{16, 17, 18, 19}));
}

TEST(Torus3d, RegisteredAsASpecialisedStrategy) {
  bool found = false;
  for (const tofa::MapperInfo& info : tofa::mapper_table())
    if (std::string(info.name) == "torus3d") {
      found = true;
      EXPECT_FALSE(info.general);
    }
  EXPECT_TRUE(found);
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph none = CommGraph::from_directed_edges(0, {});
  EXPECT_TRUE(map(request_for(none, topology)).empty());
}

// ---------------------------------------------------------------- random requests

/// True when `nodes` (distinct) are a box: each axis's coordinates one arc
/// (not crossing a mesh edge) and as many nodes as the product of the arcs.
bool is_box(const Topology& topology, const std::set<int>& nodes) {
  const int dims = topology.dimension_count();
  long long product = 1;
  for (int axis = 0; axis < 3; ++axis) {
    const int length = axis < dims ? topology.dims()[axis] : 1;
    std::vector<char> used(length, 0);
    for (int node : nodes) used[axis < dims ? topology.coords(node)[axis] : 0] = 1;
    const int count = static_cast<int>(std::count(used.begin(), used.end(), 1));
    int starts = 0;  // positions where a run of used coordinates begins
    for (int c = 0; c < length; ++c) {
      const int before = c > 0 ? c - 1 : (axis < dims && topology.wrap()[axis] ? length - 1 : -1);
      if (used[c] && (before < 0 || !used[before])) ++starts;
    }
    if (count < length && starts != 1) return false;
    product *= count;
  }
  return product == static_cast<long long>(nodes.size());
}

/// The box the policy picks, computed the slow way with node sets: every
/// anchor box as a set of nodes (empty when it crosses a mesh edge), the
/// first shape of the size with an entirely free one, the free one that
/// shares nodes with the fewest entirely free boxes of the next larger
/// shape, the first on ties. Empty when no box is free.
std::set<int> reference_box(const Topology& topology, const std::vector<tofa::torus3d::Shape>& shapes,
                            int nodes, const std::vector<int>& candidates) {
  const std::set<int> free(candidates.begin(), candidates.end());
  const int dims = topology.dimension_count();
  auto length = [&](int axis) { return axis < dims ? topology.dims()[axis] : 1; };
  auto boxes_of = [&](const tofa::torus3d::Shape& shape) {
    std::vector<std::set<int>> boxes;
    std::vector<int> at[3];
    for (int axis = 0; axis < 3; ++axis)
      at[axis] = tofa::torus3d::anchor_positions(length(axis), shape.spacing[axis], shape.seed[axis]);
    for (int x : at[0])
      for (int y : at[1])
        for (int z : at[2]) {
          const int corner[3] = {x, y, z};
          std::set<int> box;
          bool crosses = false;
          for (int dz = 0; dz < shape.dims[2]; ++dz)
            for (int dy = 0; dy < shape.dims[1]; ++dy)
              for (int dx = 0; dx < shape.dims[0]; ++dx) {
                const int offset[3] = {dx, dy, dz};
                std::vector<int> c(dims);
                for (int axis = 0; axis < 3; ++axis) {
                  const int raw = corner[axis] + offset[axis];
                  if (raw >= length(axis) && !(axis < dims && topology.wrap()[axis])) crosses = true;
                  if (axis < dims) c[axis] = raw % length(axis);
                }
                box.insert(topology.node_at(c));
              }
          boxes.push_back(crosses ? std::set<int>{} : box);
        }
    return boxes;
  };
  auto entirely_free = [&](const std::set<int>& box) {
    if (box.empty()) return false;
    for (int node : box)
      if (!free.count(node)) return false;
    return true;
  };
  const std::vector<tofa::torus3d::Shape> ordered = tofa::torus3d::order_by_size(shapes);
  for (std::size_t s = 0; s < ordered.size(); ++s) {
    if (ordered[s].size() != nodes) continue;
    std::vector<std::set<int>> larger;
    for (std::size_t t = s + 1; t < ordered.size() && larger.empty(); ++t)
      if (ordered[t].size() > nodes) larger = boxes_of(ordered[t]);
    std::set<int> best;
    int best_broken = 0;
    for (const std::set<int>& box : boxes_of(ordered[s])) {
      if (!entirely_free(box)) continue;
      int broken = 0;
      for (const std::set<int>& big : larger) {
        bool shares = false;
        for (int node : box) shares = shares || big.count(node) > 0;
        if (shares && entirely_free(big)) ++broken;
      }
      if (best.empty() || broken < best_broken) {
        best = box;
        best_broken = broken;
      }
    }
    if (!best.empty()) return best;
  }
  return {};
}

TEST(Torus3d, RandomRequestsArePlacedAsABoxOfAShapeOrRefused) {
  struct Setting {
    const char* topology;
    const char* shapes;  // "" for the defaults
  };
  const Setting settings[] = {
      {"torus:4x4x4", ""},
      {"torus:4x4x4", "1x1x1,2x1x1,2x2x1/1x1x1,3x2x1@1x0x0,2x2x2/1x1x1,4x4x1"},
      {"torus:3x5x2", "1x1x1,2x1x1,3x1x1/2x1x1,2x2x2,3x5x1"},
      {"mesh:4x4x2", "2x1x1/1x1x1,2x2x1/1x1x1,3x3x2/1x1x1"},
      {"torus:5x5", "1x1x1,2x2x1/1x1x1,5x1x1,3x3x1"},
      {"torus:6", "1x1x1,2x1x1,4x1x1/3x1x1@1x0x0"},
  };
  std::mt19937 random(2605);
  for (const Setting& setting : settings) {
    const Topology topology = Topology::from_spec(setting.topology);
    const int n = topology.node_count();
    const tofa::torus3d::Grid grid = tofa::torus3d::grid_of(topology);
    const std::vector<tofa::torus3d::Shape> shapes =
        *setting.shapes ? tofa::torus3d::parse_shapes(setting.shapes, grid)
                        : tofa::torus3d::default_shapes(grid);
    std::vector<int> sizes;
    for (const auto& shape : shapes) sizes.push_back(static_cast<int>(shape.size()));
    int placed = 0, refused = 0;
    for (int round = 0; round < 150; ++round) {
      const int slots = 1 + static_cast<int>(random() % 3);
      std::vector<int> candidates;
      const int busy_percent = static_cast<int>(random() % 60);
      for (int node = 0; node < n; ++node)
        if (static_cast<int>(random() % 100) >= busy_percent) candidates.push_back(node);
      std::shuffle(candidates.begin(), candidates.end(), random);
      if (candidates.empty()) continue;
      // Mostly a job of a shape's size, so that boxes are looked for.
      const int capacity = slots * static_cast<int>(candidates.size());
      int tasks = 1 + static_cast<int>(random() % capacity);
      const int size = sizes[random() % sizes.size()];
      if (random() % 4 != 0 && size <= static_cast<int>(candidates.size()))
        tasks = (size - 1) * slots + 1 + static_cast<int>(random() % slots);
      const CommGraph graph = tasks_graph(tasks);
      MappingRequest request = request_for(graph, topology, slots, setting.shapes);
      request.candidate_nodes = candidates;
      SCOPED_TRACE(std::string(setting.topology) + " shapes '" + setting.shapes + "' round " +
                   std::to_string(round) + ", " + std::to_string(tasks) + " tasks, " +
                   std::to_string(slots) + " slots, " + std::to_string(candidates.size()) +
                   " free");
      const int nodes = (tasks + slots - 1) / slots;
      const bool size_exists = std::count(sizes.begin(), sizes.end(), nodes) > 0;
      const std::set<int> expected = reference_box(topology, shapes, nodes, candidates);
      Placement placement;
      try {
        placement = tofa::make_mapper("torus3d")->map(request);
      } catch (const tofa::Error& error) {
        const std::string text = error.what();
        EXPECT_EQ(text.rfind(size_exists ? "torus3d: no box of shape " : "torus3d: no shape has ", 0),
                  0u)
            << text;
        EXPECT_TRUE(expected.empty()) << "refused, but a box is free";
        ++refused;
        continue;
      }
      ++placed;
      EXPECT_NO_THROW(tofa::check_placement(request, placement));
      const std::set<int> used(placement.begin(), placement.end());
      EXPECT_EQ(static_cast<int>(used.size()), nodes);
      EXPECT_TRUE(is_box(topology, used)) << "nodes do not form a box";
      EXPECT_EQ(used, expected);
      EXPECT_EQ(tofa::make_mapper("torus3d")->map(request), placement) << "not deterministic";
    }
    EXPECT_GT(placed, 0) << setting.topology;  // both paths were taken
    EXPECT_GT(refused, 0) << setting.topology;
  }
}

TEST(Torus3d, AFreeTorusPlacesEveryJobOfAShapesSize) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const std::string shapes = "1x1x1,2x1x1,2x2x1,3x3x1,2x2x2,4x4x2,4x4x4";
  for (int nodes : {1, 2, 4, 9, 8, 32, 64}) {
    SCOPED_TRACE(nodes);
    const CommGraph graph = tasks_graph(2 * nodes - 1);
    const Placement placement = map(request_for(graph, topology, 2, shapes));
    const std::set<int> used(placement.begin(), placement.end());
    EXPECT_EQ(static_cast<int>(used.size()), nodes);
    EXPECT_TRUE(is_box(topology, used));
  }
}

}  // namespace
