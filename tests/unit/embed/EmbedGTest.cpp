// The embed strategy and its parts: Pivot MDS, the turn to the domain's
// faces, recursive coordinate bisection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <vector>

#include "base/error.hpp"
#include "graph/generators.hpp"
#include "map/embed/axis_alignment.hpp"
#include "map/embed/coordinate_bisection.hpp"
#include "map/embed/pivot_mds.hpp"
#include "map/mapper.hpp"
#include "metrics/metrics.hpp"

namespace {

using tofa::CommGraph;
using tofa::Topology;

CommGraph path_graph(int tasks) {
  std::vector<tofa::CommEdge> edges;
  for (int t = 0; t + 1 < tasks; ++t) edges.push_back({t, t + 1, 1, 1});
  return CommGraph::from_directed_edges(tasks, edges);
}

TEST(PivotMds, APathComesOutInOrderAlongTheFirstAxis) {
  const CommGraph graph = path_graph(20);
  const std::vector<double> coords = tofa::embed::pivot_mds(graph, 2, 8);
  ASSERT_EQ(coords.size(), 40u);
  const double direction = coords[2 * 19] > coords[0] ? 1 : -1;
  for (int t = 0; t + 1 < 20; ++t) EXPECT_LT(direction * coords[2 * t], direction * coords[2 * (t + 1)]) << t;
}

TEST(PivotMds, TheLongSideOfAGridIsTheFirstAxis) {
  const CommGraph graph = tofa::stencil_graph({16, 4});
  const std::vector<double> coords = tofa::embed::pivot_mds(graph, 2, 10);
  auto spread = [&](int axis) {
    double low = coords[axis], high = coords[axis];
    for (std::size_t p = axis; p < coords.size(); p += 2) low = std::min(low, coords[p]), high = std::max(high, coords[p]);
    return high - low;
  };
  EXPECT_GT(spread(0), 2 * spread(1));
}

TEST(PivotMds, DisconnectedTasksAndTinyGraphsGetFiniteCoordinates) {
  const CommGraph graph = CommGraph::from_directed_edges(5, {{0, 1, 1, 1}});  // 2, 3, 4 alone
  for (double c : tofa::embed::pivot_mds(graph, 3, 32)) EXPECT_TRUE(std::isfinite(c));
  EXPECT_EQ(tofa::embed::pivot_mds(CommGraph::from_directed_edges(1, {}), 3, 32).size(), 3u);
  EXPECT_THROW(tofa::embed::pivot_mds(graph, 3, 2), tofa::Error);
}

TEST(AxisAlignment, ARotatedSquareTurnsBackToItsEdges) {
  std::mt19937 engine(3);
  std::uniform_real_distribution<double> side(0, 1);
  const double angle = 0.5;  // about 29 degrees
  std::vector<double> coords;
  for (int p = 0; p < 4000; ++p) {
    const double x = side(engine), y = side(engine);
    coords.push_back(std::cos(angle) * x - std::sin(angle) * y);
    coords.push_back(std::sin(angle) * x + std::cos(angle) * y);
  }
  tofa::embed::align_axes_to_faces(coords, 2);
  // Along an edge the square spans 1; along a diagonal up to sqrt(2).
  for (int axis = 0; axis < 2; ++axis) {
    double low = coords[axis], high = coords[axis];
    for (std::size_t p = axis; p < coords.size(); p += 2) low = std::min(low, coords[p]), high = std::max(high, coords[p]);
    EXPECT_NEAR(high - low, 1.0, 0.05) << axis;
  }
}

TEST(CoordinateBisection, AStencilWithItsOwnCoordinatesLandsOneHopPerEdge) {
  const Topology topology = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = tofa::stencil_graph({4, 4, 4});
  std::vector<double> coords;
  for (int t = 0; t < 64; ++t) {
    coords.push_back(t % 4);
    coords.push_back(t / 4 % 4 + 0.1);  // distinct extents, one pairing
    coords.push_back(t / 16 + 0.2);
  }
  std::vector<int> nodes(64);
  for (int n = 0; n < 64; ++n) nodes[n] = n;
  const std::vector<int> placement = tofa::embed::coordinate_bisection(coords, 3, topology, nodes, 1);
  const tofa::PlacementMetrics metrics = tofa::evaluate_placement(graph, topology, placement);
  EXPECT_EQ(metrics.nodes_used, 64);
  EXPECT_DOUBLE_EQ(metrics.hop_bytes, metrics.total_bytes);
}

TEST(CoordinateBisection, NodesAcrossTheWrapAreOneBlock) {
  // Candidates 6, 7, 0, 1 of a ring of 8: a path of 4 tasks needs 3 hops.
  const Topology topology = Topology::from_spec("torus:8");
  const CommGraph graph = path_graph(4);
  const std::vector<double> coords{0, 1, 2, 3};
  const std::vector<int> placement =
      tofa::embed::coordinate_bisection(coords, 1, topology, {0, 1, 6, 7}, 1);
  EXPECT_DOUBLE_EQ(tofa::evaluate_placement(graph, topology, placement).hop_bytes, 3);  // 5 in id order
}

TEST(CoordinateBisection, NoNodeTakesMoreThanItsSlots) {
  const Topology topology = Topology::from_spec("torus:4x4");
  std::vector<double> coords;
  for (int t = 0; t < 10; ++t) coords.push_back(t), coords.push_back(0);
  const std::vector<int> placement =
      tofa::embed::coordinate_bisection(coords, 2, topology, {0, 1, 2, 5}, 3);
  std::map<int, int> load;
  for (int node : placement) ++load[node];
  for (const auto& [node, tasks] : load) EXPECT_LE(tasks, 3) << node;
  EXPECT_THROW(tofa::embed::coordinate_bisection(coords, 2, topology, {0, 1, 2}, 3), tofa::Error);
}

TEST(EmbedStrategy, AStencilOfTheTorusShapeIsPlacedExactly) {
  const Topology topology = Topology::from_spec("torus:8x4x2");
  const CommGraph graph = tofa::with_shuffled_ids(tofa::stencil_graph({8, 4, 2}), 5);
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  const tofa::Placement placement = tofa::make_mapper("embed")->map(request);
  tofa::check_placement(request, placement);
  const tofa::PlacementMetrics metrics = tofa::evaluate_placement(graph, topology, placement);
  EXPECT_DOUBLE_EQ(metrics.hop_bytes, metrics.total_bytes);
}

TEST(EmbedStrategy, FaultFreeNodesNearTheFirstCandidateFirst) {
  const Topology topology = Topology::from_spec("torus:8x8");
  const CommGraph graph = tofa::stencil_graph({2, 2});
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.outage.assign(64, 0.0);
  request.outage[1] = 0.05;
  request.candidate_nodes = {0, 1, 8, 9, 10, 2, 40, 41};
  const tofa::Placement placement = tofa::make_mapper("embed")->map(request);
  tofa::check_placement(request, placement);
  std::vector<int> used = placement;
  std::sort(used.begin(), used.end());
  EXPECT_EQ(used, (std::vector<int>{0, 2, 8, 9}));  // not faulty 1, not far 40 and 41
}

}  // namespace
