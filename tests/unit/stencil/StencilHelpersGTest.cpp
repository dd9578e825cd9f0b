// Stencil helpers: job shapes (parsed and recognized), the rotation step, job
// grids, GROUPING's block, allocation coordinates and rank distances.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "graph/generators.hpp"
#include "map/stencil/allocation.hpp"
#include "map/stencil/group_block.hpp"
#include "map/stencil/job_grid.hpp"
#include "map/stencil/job_shape.hpp"

namespace {

using tofa::stencil::Triple;

using tofa_test::error_text;

TEST(StencilShape, ParsesOneToThreeDimensions) {
  EXPECT_EQ(tofa::stencil::parse_shape("4x8x4", "ctx"), (Triple{4, 8, 4}));
  EXPECT_EQ(tofa::stencil::parse_shape("6x5", "ctx"), (Triple{6, 5, 1}));
  EXPECT_EQ(tofa::stencil::parse_shape("64", "ctx"), (Triple{64, 1, 1}));
  for (const char* bad : {"", "4x", "x4", "4x0x4", "4x4x4x4", "4*4", "-4x4", "4x4 "}) {
    EXPECT_EQ(error_text([&] { tofa::stencil::parse_shape(bad, "ctx"); }),
              "ctx: expected XxYxZ with 1 to 3 positive integers, found '" + std::string(bad) + "'")
        << bad;
  }
}

TEST(StencilShape, RecognizesStencilGraphs) {
  Triple shape;
  ASSERT_TRUE(tofa::stencil::infer_shape(tofa_test::stencil_graph(4, 8, 4), &shape));
  EXPECT_EQ(shape, (Triple{4, 8, 4}));
  ASSERT_TRUE(tofa::stencil::infer_shape(tofa::stencil_graph({6, 5}), &shape));
  EXPECT_EQ(shape, (Triple{6, 5, 1}));
  // Axes of length 1 go last: a 4x1x8 job has the same graph as 4x8x1.
  ASSERT_TRUE(tofa::stencil::infer_shape(tofa_test::stencil_graph(4, 1, 8), &shape));
  EXPECT_EQ(shape, (Triple{4, 8, 1}));
  ASSERT_TRUE(tofa::stencil::infer_shape(tofa_test::stencil_graph(1, 1, 1), &shape));
  EXPECT_EQ(shape, (Triple{1, 1, 1}));
}

TEST(StencilShape, RejectsGraphsThatAreNotStencils) {
  Triple shape{7, 7, 7};
  // A ring has the extra edge 0-(n-1).
  EXPECT_FALSE(tofa::stencil::infer_shape(tofa_test::ring_graph(8), &shape));
  // A stencil missing one edge (task 5 - task 6 of a 4x4 grid).
  std::vector<tofa::CommEdge> edges = tofa::stencil_graph({4, 4}).undirected_edges();
  edges.erase(std::find_if(edges.begin(), edges.end(),
                           [](const tofa::CommEdge& e) { return e.from == 5 && e.to == 6; }));
  EXPECT_FALSE(tofa::stencil::infer_shape(tofa::CommGraph::from_directed_edges(16, edges), &shape));
  // 4D stencils are not supported.
  EXPECT_FALSE(tofa::stencil::infer_shape(tofa::stencil_graph({2, 2, 2, 2}), &shape));
  EXPECT_EQ(shape, (Triple{7, 7, 7}));
}

TEST(StencilShape, ParameterWinsAndMustMatchTheTaskCount) {
  const tofa::CommGraph ring = tofa_test::ring_graph(20);
  const tofa::Topology torus = tofa::Topology::from_spec("torus:4x4x4");
  tofa::MappingRequest request;
  request.graph = &ring;
  request.topology = &torus;
  EXPECT_EQ(error_text([&] { tofa::stencil::job_shape(request, "stencil-rcb"); }),
            "stencil-rcb: the communication graph is not a recognizable XxYxZ stencil; give the "
            "job shape with the parameter stencil=XxYxZ");
  request.parameters["stencil"] = "4x5";
  EXPECT_EQ(tofa::stencil::job_shape(request, "stencil-rcb"), (Triple{4, 5, 1}));
  request.parameters["stencil"] = "4x4";
  EXPECT_EQ(error_text([&] { tofa::stencil::job_shape(request, "stencil-rcb"); }),
            "stencil-rcb: stencil 4x4 has 16 tasks but the graph has 20");
  request.parameters["stencil"] = "4by5";
  EXPECT_EQ(error_text([&] { tofa::stencil::job_shape(request, "stencil-rcb"); }),
            "stencil-rcb: parameter stencil: expected XxYxZ with 1 to 3 positive integers, "
            "found '4by5'");
}

TEST(StencilJobGrid, RotatedCoordinatesRoundTrip) {
  // Grid axis 0 shows job axis 2, grid axis 1 job axis 0, grid axis 2 job axis 1.
  const tofa::stencil::JobGrid grid(Triple{2, 3, 4}, Triple{2, 0, 1});
  EXPECT_EQ(grid.dims(), (Triple{4, 2, 3}));
  EXPECT_TRUE(grid.is_rotated());
  // Job point (x,y,z) = (1,2,3) is task 1 + 2*(2 + 3*3) = 23, at grid (3,1,2).
  EXPECT_EQ(grid.task_at({3, 1, 2}), 23);
  EXPECT_EQ(grid.grid_of(23), (Triple{3, 1, 2}));
  for (int task = 0; task < 24; ++task) EXPECT_EQ(grid.task_at(grid.grid_of(task)), task);
}

TEST(StencilRotation, MatchesTheOrderOfTheBoundingBox) {
  using tofa::stencil::rotate_to_fit;
  // The seed's example: the job is longer in x, the box in y -> rotate.
  tofa::stencil::JobGrid grid = rotate_to_fit({8, 4, 1}, {3, 10, 1});
  EXPECT_EQ(grid.dims(), (Triple{4, 8, 1}));
  // Same order (ties are not a difference): no rotation.
  EXPECT_FALSE(rotate_to_fit({4, 8, 4}, {8, 8, 3}).is_rotated());
  EXPECT_FALSE(rotate_to_fit({4, 4, 4}, {1, 9, 2}).is_rotated());
  // Longest to longest, shortest to shortest.
  grid = rotate_to_fit({4, 8, 2}, {5, 3, 9});
  EXPECT_EQ(grid.dims(), (Triple{4, 2, 8}));
  EXPECT_EQ(grid.axis_of(), (Triple{0, 2, 1}));
}

TEST(StencilGroupBlock, PrefersFullCubicBlocks) {
  // Barrett et al.'s 2x2x4 for 16-core nodes: 2x2x4, 2x4x2 and 4x2x2 all cut
  // ab+bc+ca = 20 faces (1x4x4 cuts 24); the tie goes to the longer z side.
  EXPECT_EQ(tofa::stencil::group_block({4, 8, 4}, 16), (Triple{2, 2, 4}));
  EXPECT_EQ(tofa::stencil::group_block({4, 4, 4}, 8), (Triple{2, 2, 2}));
  EXPECT_EQ(tofa::stencil::group_block({4, 8, 4}, 1), (Triple{1, 1, 1}));
  // 3 slots and no side divisible by 3: the best block has 2 tasks, z side first.
  EXPECT_EQ(tofa::stencil::group_block({4, 4, 4}, 3), (Triple{1, 1, 2}));
  // 2D job: only x and y can grow.
  EXPECT_EQ(tofa::stencil::group_block({6, 4, 1}, 4), (Triple{2, 2, 1}));
}

TEST(StencilAllocation, UnwrapsAcrossTheTorusSeam) {
  const tofa::Topology torus = tofa::Topology::from_spec("torus:8x8x8");
  const tofa::CommGraph graph = tofa_test::stencil_graph(4, 2, 1);
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &torus;
  request.slots_per_node = 2;
  // x in {6, 7, 0, 1}, y = 3, z = 7: four nodes, two ranks each.
  for (int x : {7, 0, 6, 1}) request.candidate_nodes.push_back(torus.node_at({x, 3, 7}));
  request.candidate_nodes.push_back(torus.node_at({2, 2, 2}));  // not needed: 8 ranks fit on 4
  const tofa::stencil::Allocation allocation =
      tofa::stencil::make_allocation(request, 8, "stencil-test");
  ASSERT_EQ(allocation.rank_count(), 8);
  EXPECT_EQ(allocation.rank_node[0], torus.node_at({7, 3, 7}));
  EXPECT_EQ(allocation.rank_node[1], torus.node_at({7, 3, 7}));
  EXPECT_EQ(allocation.rank_node[7], torus.node_at({1, 3, 7}));
  // The largest unused run of x is 2..5, so x = 6 becomes 0; y and z are single values.
  EXPECT_EQ(allocation.rank_coord[0], (Triple{1, 0, 0}));  // x = 7
  EXPECT_EQ(allocation.rank_coord[2], (Triple{2, 0, 0}));  // x = 0
  EXPECT_EQ(allocation.rank_coord[4], (Triple{0, 0, 0}));  // x = 6
  EXPECT_EQ(allocation.extent(), (Triple{4, 1, 1}));
  EXPECT_EQ(allocation.rank_raw[0], (Triple{7, 3, 7}));
}

TEST(StencilAllocation, RankDistanceIsTheTopologysHopDistance) {
  for (const char* spec : {"torus:5x4x6", "mesh:7x3", "torus:9"}) {
    const tofa::Topology topology = tofa::Topology::from_spec(spec);
    const tofa::CommGraph graph = tofa::stencil_graph({topology.node_count()});
    tofa::MappingRequest request;
    request.graph = &graph;
    request.topology = &topology;
    request.slots_per_node = 1;
    const auto allocation =
        tofa::stencil::make_allocation(request, topology.node_count(), "stencil-test");
    const tofa::stencil::RankDistance distance(topology, allocation);
    for (int a = 0; a < topology.node_count(); ++a)
      for (int b = 0; b < topology.node_count(); ++b)
        ASSERT_EQ(distance(a, b), topology.hop_distance(allocation.rank_node[a],
                                                        allocation.rank_node[b]))
            << spec << " " << a << " " << b;
  }
}

TEST(StencilAllocation, RejectsFourDimensionsAndOverfullRequests) {
  const tofa::Topology four = tofa::Topology::from_spec("torus:2x2x2x2");
  const tofa::CommGraph graph = tofa_test::stencil_graph(2, 2, 2);
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &four;
  request.slots_per_node = 1;
  EXPECT_EQ(error_text([&] { tofa::stencil::make_allocation(request, 8, "stencil-rcb"); }),
            "stencil-rcb: needs a topology of 1 to 3 dimensions, got 4");
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:2x3");
  request.topology = &mesh;
  EXPECT_EQ(error_text([&] { tofa::stencil::make_allocation(request, 8, "stencil-rcb"); }),
            "8 tasks do not fit on 6 nodes with 1 slots each");
}

}  // namespace
