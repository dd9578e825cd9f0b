// The abort rule: an instance aborts when a failed node runs one of its
// tasks or lies on R(u,v) or R(v,u) of two communicating tasks. Every
// expectation below is worked out by hand from the routing rule.
#include <gtest/gtest.h>

#include <vector>

#include "base/error.hpp"
#include "graph/graph.hpp"
#include "sim/failure_draw.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::CommGraph;
using tofa::Topology;

CommGraph pair_graph(int tasks, int a, int b) {
  return CommGraph::from_directed_edges(tasks, {{a, b, 4096, 1}});
}

int cause(const Topology& topology, const CommGraph& graph, const std::vector<int>& placement,
          const std::vector<int>& failed) {
  return tofa::sim::abort_cause(tofa::sim::nodes_in_use(topology, graph, placement), failed);
}

TEST(AbortRule, FailedIntermediateNodeOfARingRouteAborts) {
  // Ring of 8, tasks on n0 and n3: R(0,3) = 0 1 2 3, R(3,0) = 3 2 1 0.
  const Topology ring = Topology::from_spec("torus:8");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {1}), 1);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {2, 6}), 2);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {5}), -1);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {4, 7}), -1);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {}), -1);
}

TEST(AbortRule, FailedEndpointAborts) {
  const Topology ring = Topology::from_spec("torus:8");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {3}), 3);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {0}), 0);
}

TEST(AbortRule, HalfwayTieTakesTheSameWayBothDirections) {
  // Ring of 4, n0 <-> n2: from 0 the tie goes + (via n1); from coordinate
  // L/2 = 2 it goes - (via n1 again), so n3 is never touched.
  const Topology ring = Topology::from_spec("torus:4");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(ring, graph, {0, 2}, {3}), -1);
  EXPECT_EQ(cause(ring, graph, {0, 2}, {1}), 1);
}

TEST(AbortRule, HalfwayTieCanTakeTheOtherWayBack) {
  // Ring of 4, n1 <-> n3: R(1,3) goes + via n2; R(3,1) goes + too (3 is not
  // L/2), via n0. Only the reverse route touches n0.
  const Topology ring = Topology::from_spec("torus:4");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(ring, graph, {1, 3}, {0}), 0);
  EXPECT_EQ(cause(ring, graph, {1, 3}, {2}), 2);
}

TEST(AbortRule, ReverseRouteOfATorusCountsToo) {
  // 4x4 torus, (0,0) = n0 and (1,1) = n5. Dimension 0 first:
  // R(n0,n5) = (0,0) (1,0) (1,1) through n1; R(n5,n0) = (1,1) (0,1) (0,0)
  // through n4.
  const Topology torus = Topology::from_spec("torus:4x4");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(torus, graph, {0, 5}, {4}), 4);
  EXPECT_EQ(cause(torus, graph, {0, 5}, {1}), 1);
  EXPECT_EQ(cause(torus, graph, {0, 5}, {2, 3, 6, 7, 8, 12, 15}), -1);
}

TEST(AbortRule, RouteThroughTheMiddleOf3DTorus) {
  // 4x4x4 torus, (0,0,0) = n0 and (2,2,2) = n42. R(n0,n42) goes + in each
  // dimension: n1 n2 | n6 n10 | n26 n42. R(n42,n0) starts at coordinate 2
  // = L/2 in every dimension, so it goes -: n41 n40 | n36 n32 | n16 n0.
  const Topology torus = Topology::from_spec("torus:4x4x4");
  const CommGraph graph = pair_graph(2, 0, 1);
  for (int node : {1, 2, 6, 10, 26, 41, 40, 36, 32, 16})
    EXPECT_EQ(cause(torus, graph, {0, 42}, {node}), node) << "node " << node;
  for (int node : {3, 4, 5, 8, 22, 43, 58, 63})
    EXPECT_EQ(cause(torus, graph, {0, 42}, {node}), -1) << "node " << node;
}

TEST(AbortRule, MeshRoutesDoNotWrap) {
  // Mesh of 4: n0 -> n3 must cross n1 and n2.
  const Topology mesh = Topology::from_spec("mesh:4");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(mesh, graph, {0, 3}, {1}), 1);
  EXPECT_EQ(cause(mesh, graph, {0, 3}, {2}), 2);
}

TEST(AbortRule, OnlyCommunicatingPairsHaveRoutes) {
  // Ring of 8, tasks 0 1 2 on n0 n3 n6; only 0 and 1 talk. The nodes
  // between n3 and n6 (n4, n5) carry nothing; n6 runs task 2.
  const Topology ring = Topology::from_spec("torus:8");
  const CommGraph graph = pair_graph(3, 0, 1);
  EXPECT_EQ(cause(ring, graph, {0, 3, 6}, {4, 5, 7}), -1);
  EXPECT_EQ(cause(ring, graph, {0, 3, 6}, {5, 6}), 6);
}

TEST(AbortRule, MessagesWithoutBytesStillTakeTheRoute) {
  const Topology ring = Topology::from_spec("torus:8");
  const CommGraph graph = CommGraph::from_directed_edges(2, {{0, 1, 0, 3}});
  EXPECT_EQ(cause(ring, graph, {0, 3}, {2}), 2);
}

TEST(AbortRule, TasksSharingANodeUseNoLink) {
  const Topology ring = Topology::from_spec("torus:8:cores=2");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(ring, graph, {4, 4}, {3, 5}), -1);
  EXPECT_EQ(cause(ring, graph, {4, 4}, {4}), 4);
}

TEST(AbortRule, FirstFailedNodeInItsOrderIsTheCause) {
  const Topology ring = Topology::from_spec("torus:8");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_EQ(cause(ring, graph, {0, 3}, {2, 1}), 2);
  EXPECT_TRUE(tofa::sim::instance_aborts(tofa::sim::nodes_in_use(ring, graph, {0, 3}), {7, 1}));
  EXPECT_FALSE(tofa::sim::instance_aborts(tofa::sim::nodes_in_use(ring, graph, {0, 3}), {7}));
}

TEST(AbortRule, BadInputIsRefused) {
  const Topology ring = Topology::from_spec("torus:8");
  const CommGraph graph = pair_graph(2, 0, 1);
  EXPECT_THROW(tofa::sim::nodes_in_use(ring, graph, {0}), tofa::Error);
  EXPECT_THROW(tofa::sim::nodes_in_use(ring, graph, {0, 8}), tofa::Error);
  EXPECT_THROW(tofa::sim::abort_cause(tofa::sim::nodes_in_use(ring, graph, {0, 3}), {8}),
               tofa::Error);
}

}  // namespace
