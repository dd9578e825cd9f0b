// Placement metrics: hops, hop-bytes, dilation, link loads, abort probability.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "graph/graph.hpp"
#include "metrics/metrics.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::Link;
using tofa::PlacementMetrics;

using tofa_test::error_text;

// 2x2x2 torus, id = x + 2y + 4z. In a ring of 2 the route from coordinate 0
// goes +1 and from coordinate 1 goes -1 (distance L/2 rule).
//
// 4 tasks, edges {0,1} 10 B, {1,2} 20 B, {2,3} 30 B, {0,3} 40 B (total 100 B).
// Placement: task 0 -> node 0 (0,0,0), tasks 1 and 2 -> node 3 (1,1,0), task 3 -> node 7 (1,1,1).
//
//   edge   nodes  hops  bytes*hops  route there             route back
//   {0,1}  0-3    2     20          0->1 (x+), 1->3 (y+)    3->2 (x-), 2->0 (y-)
//   {1,2}  3-3    0     0           -                       -
//   {2,3}  3-7    1     30          3->7 (z+)               7->3 (z-)
//   {0,3}  0-7    3     120         0->1, 1->3, 3->7 (+)    7->6 (x-), 6->4 (y-), 4->0 (z-)
//
// average hops (2+0+1+3)/4 = 1.5; variance (0.25+2.25+0.25+2.25)/4 = 1.25; max 3;
// hop_bytes 170; dilation 170/100 = 1.7; nodes used {0,3,7} = 3.
// Link loads, half of each edge's bytes each way:
//   0->1 x+: 5 + 20 = 25     1->3 y+: 5 + 20 = 25     3->7 z+: 15 + 20 = 35
//   3->2 x-: 5               2->0 y-: 5               7->3 z-: 15
//   7->6 x-: 20              6->4 y-: 20              4->0 z-: 20
// 9 links used, busiest 3->7 with 35 (loads sum to hop_bytes, 170).
struct SmallTorusExample : ::testing::Test {
  tofa::Topology topology{{2, 2, 2}, {true, true, true}};
  tofa::CommGraph graph = tofa::CommGraph::from_directed_edges(
      4, {{0, 1, 10, 1}, {1, 2, 20, 1}, {2, 3, 30, 1}, {3, 0, 40, 1}});
  std::vector<int> placement{0, 3, 3, 7};
};

TEST_F(SmallTorusExample, AllMetrics) {
  const PlacementMetrics m = tofa::evaluate_placement(graph, topology, placement);
  EXPECT_EQ(m.tasks, 4);
  EXPECT_EQ(m.nodes_used, 3);
  EXPECT_DOUBLE_EQ(m.total_bytes, 100.0);
  EXPECT_DOUBLE_EQ(m.hop_bytes, 170.0);
  EXPECT_DOUBLE_EQ(m.average_hops, 1.5);
  EXPECT_DOUBLE_EQ(m.hop_variance, 1.25);
  EXPECT_EQ(m.max_hops, 3);
  EXPECT_DOUBLE_EQ(m.dilation, 1.7);
  EXPECT_DOUBLE_EQ(m.max_link_load, 35.0);
  EXPECT_EQ(m.links_used, 9);
  EXPECT_EQ(m.abort_probability, 0.0);
}

TEST_F(SmallTorusExample, LinkLoads) {
  const std::vector<double> loads = tofa::link_loads(graph, topology, placement);
  ASSERT_EQ(loads.size(), static_cast<std::size_t>(topology.link_slot_count()));
  std::vector<double> expected(loads.size(), 0.0);
  expected[topology.link_id(Link{0, 1, 0, +1})] = 25;
  expected[topology.link_id(Link{1, 3, 1, +1})] = 25;
  expected[topology.link_id(Link{3, 7, 2, +1})] = 35;
  expected[topology.link_id(Link{3, 2, 0, -1})] = 5;
  expected[topology.link_id(Link{2, 0, 1, -1})] = 5;
  expected[topology.link_id(Link{7, 3, 2, -1})] = 15;
  expected[topology.link_id(Link{7, 6, 0, -1})] = 20;
  expected[topology.link_id(Link{6, 4, 1, -1})] = 20;
  expected[topology.link_id(Link{4, 0, 2, -1})] = 20;
  EXPECT_EQ(loads, expected);
}

TEST_F(SmallTorusExample, AbortProbabilityUsesTheRoutesBothWays) {
  // Edge {0,3} is routed 0 -> 7 through nodes 1 and 3, and back 7 -> 0
  // through 6 and 4 (the link loads above). Node 3 hosts tasks anyway.
  // Involved: {0, 3, 7} + {1} (0->3) + {1, 3} (0->7) + {6, 4} (7->0).
  // p1 = 0.25, p6 = 0.5: 1 - (1 - 0.25)(1 - 0.5) = 0.625.
  std::vector<double> outage(8, 0.0);
  outage[1] = 0.25;
  outage[6] = 0.5;
  const PlacementMetrics m = tofa::evaluate_placement(graph, topology, placement, outage);
  EXPECT_DOUBLE_EQ(m.abort_probability, 0.625);
  // Fault information does not change the communication metrics.
  EXPECT_DOUBLE_EQ(m.hop_bytes, 170.0);
}

TEST(Metrics, TasksOnOneNodeAreZeroHopsApart) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  const tofa::CommGraph graph = tofa_test::ring_graph(5, 8.0);
  const PlacementMetrics m =
      tofa::evaluate_placement(graph, topology, std::vector<int>(5, 42));
  EXPECT_EQ(m.tasks, 5);
  EXPECT_EQ(m.nodes_used, 1);
  EXPECT_DOUBLE_EQ(m.total_bytes, 40.0);
  EXPECT_EQ(m.hop_bytes, 0.0);
  EXPECT_EQ(m.average_hops, 0.0);
  EXPECT_EQ(m.hop_variance, 0.0);
  EXPECT_EQ(m.max_hops, 0);
  EXPECT_EQ(m.dilation, 0.0);
  EXPECT_EQ(m.max_link_load, 0.0);
  EXPECT_EQ(m.links_used, 0);
}

TEST(Metrics, GraphWithoutEdges) {
  const tofa::Topology topology({4, 4}, {false, false});
  const tofa::CommGraph graph = tofa::CommGraph::from_directed_edges(3, {});
  const PlacementMetrics m = tofa::evaluate_placement(graph, topology, {0, 5, 15});
  EXPECT_EQ(m.tasks, 3);
  EXPECT_EQ(m.nodes_used, 3);
  EXPECT_EQ(m.total_bytes, 0.0);
  EXPECT_EQ(m.average_hops, 0.0);
  EXPECT_EQ(m.hop_variance, 0.0);
  EXPECT_EQ(m.dilation, 0.0);
  EXPECT_EQ(m.links_used, 0);
}

TEST(Metrics, IdentityStencilOnTorusIsOneHopEverywhere) {
  // 16x16x16 stencil on a 16x16x16 torus, task i on node i: every edge joins
  // neighbours. Edges: 3 * 16 * 16 * 15 = 11520 of 1 byte (one directed record
  // each); every edge puts 0.5 byte on each of its two directed links, so 23040
  // links carry 0.5 byte.
  const tofa::Topology topology({16, 16, 16}, {true, true, true});
  const tofa::CommGraph graph = tofa_test::stencil_graph(16, 16, 16, 1.0);
  std::vector<int> placement(4096);
  std::iota(placement.begin(), placement.end(), 0);
  const PlacementMetrics m = tofa::evaluate_placement(graph, topology, placement);
  EXPECT_EQ(m.nodes_used, 4096);
  EXPECT_DOUBLE_EQ(m.total_bytes, 11520.0);
  EXPECT_DOUBLE_EQ(m.hop_bytes, 11520.0);
  EXPECT_DOUBLE_EQ(m.average_hops, 1.0);
  EXPECT_DOUBLE_EQ(m.hop_variance, 0.0);
  EXPECT_EQ(m.max_hops, 1);
  EXPECT_DOUBLE_EQ(m.dilation, 1.0);
  EXPECT_DOUBLE_EQ(m.max_link_load, 0.5);
  EXPECT_EQ(m.links_used, 23040);
}

TEST(Metrics, LinkLoadsAddUpToHopBytesForAnyPlacement) {
  // R(u,v) and R(v,u) have the same length, so each edge puts bytes * hops on
  // the links in total; the sum over all links is hop_bytes.
  const tofa::Topology topology({16, 16, 16}, {true, true, true});
  const tofa::CommGraph graph = tofa_test::stencil_graph(16, 16, 16, 3.0);
  std::vector<int> placement(4096);
  std::iota(placement.begin(), placement.end(), 0);
  std::mt19937 generator(12345);
  std::shuffle(placement.begin(), placement.end(), generator);
  const PlacementMetrics m = tofa::evaluate_placement(graph, topology, placement);
  const std::vector<double> loads = tofa::link_loads(graph, topology, placement);
  EXPECT_DOUBLE_EQ(std::accumulate(loads.begin(), loads.end(), 0.0), m.hop_bytes);
  EXPECT_DOUBLE_EQ(*std::max_element(loads.begin(), loads.end()), m.max_link_load);
  EXPECT_DOUBLE_EQ(m.dilation, m.average_hops);  // all edges carry the same bytes
  EXPECT_GT(m.average_hops, 1.0);
  EXPECT_LE(m.max_hops, 24);  // 8 hops per dimension at most
}

// Both ways of summing them: many route hops against the machine's links
// (through a vector of every link) and few (sorted).
TEST(Metrics, SparseLinkLoadsAreTheLoadedLinksInIdOrder) {
  struct Case {
    std::vector<int> torus, tasks;
  };
  for (const Case& c : {Case{{8, 8, 8}, {4, 4, 4}}, Case{{32, 32, 32}, {2, 2, 2}}}) {
    const tofa::Topology topology(c.torus, {true, true, true});
    const tofa::CommGraph graph = tofa_test::stencil_graph(c.tasks[0], c.tasks[1], c.tasks[2], 7.0);
    std::vector<int> placement(graph.task_count());
    std::mt19937 generator(7);
    std::uniform_int_distribution<int> node(0, topology.node_count() - 1);
    for (int& n : placement) n = node(generator);
    // recounted here, edge by edge along R(u,v) and R(v,u)
    std::vector<double> dense(topology.link_slot_count(), 0.0);
    for (int a = 0; a < graph.task_count(); ++a)
      for (std::int64_t k = graph.offsets()[a]; k < graph.offsets()[a + 1]; ++k) {
        const int b = graph.adjacency()[k];
        if (b < a || placement[a] == placement[b]) continue;
        for (const auto& [from, to] : {std::pair{placement[a], placement[b]},
                                       std::pair{placement[b], placement[a]}})
          for (const Link& link : topology.route(from, to).links)
            dense[topology.link_id(link)] += graph.bytes()[k] / 2;
      }
    std::vector<std::pair<int, double>> loaded;
    for (std::size_t l = 0; l < dense.size(); ++l)
      if (dense[l] > 0) loaded.emplace_back(static_cast<int>(l), dense[l]);
    ASSERT_GT(loaded.size(), 10u);
    // same links, same bytes to the last bit
    EXPECT_EQ(tofa::sparse_link_loads(graph, topology, placement), loaded);
    EXPECT_EQ(tofa::link_loads(graph, topology, placement), dense);
    const PlacementMetrics m = tofa::evaluate_placement(graph, topology, placement);
    EXPECT_EQ(m.links_used, static_cast<int>(loaded.size()));
    EXPECT_EQ(m.max_link_load, *std::max_element(dense.begin(), dense.end()));
  }
}

TEST(Metrics, OneWayTrafficLoadsOnlyItsOwnRoute) {
  // 4x4 torus: node 0 (0,0) to node 5 (1,1) routes x first (0 -> 1 -> 5),
  // back y first... x first from (1,1): 5 -> 4 -> 0. A recorded one-way
  // pair loads R(0,5) only; a pair without kept directions half each way.
  const tofa::Topology topology = tofa::Topology::from_spec("torus:4x4");
  const std::vector<int> placement = {0, 5};
  const tofa::CommGraph one_way =
      tofa::CommGraph::from_directed_edges(2, {{0, 1, 8, 1}}, tofa::Directions::Kept);
  const tofa::CommGraph halved = tofa::CommGraph::from_directed_edges(2, {{0, 1, 8, 1}});
  std::vector<double> forward(topology.link_slot_count(), 0.0), back = forward;
  std::vector<int> ids;
  topology.route_link_ids(0, 5, ids);
  for (int id : ids) forward[id] = 8;
  topology.route_link_ids(5, 0, ids);
  for (int id : ids) back[id] = 8;
  EXPECT_NE(forward, back);
  EXPECT_EQ(tofa::link_loads(one_way, topology, placement), forward);
  std::vector<double> half(forward.size());
  for (std::size_t l = 0; l < half.size(); ++l) half[l] = (forward[l] + back[l]) / 2;
  EXPECT_EQ(tofa::link_loads(halved, topology, placement), half);
  // Hop-bytes do not depend on the direction.
  EXPECT_EQ(tofa::evaluate_placement(one_way, topology, placement).hop_bytes,
            tofa::evaluate_placement(halved, topology, placement).hop_bytes);
}

TEST(Metrics, RejectsInvalidPlacements) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  const tofa::CommGraph graph = tofa_test::ring_graph(4);
  EXPECT_EQ(error_text([&] { tofa::evaluate_placement(graph, topology, {0, 1, 2}); }),
            "placement has 3 entries, expected 4 tasks");
  EXPECT_EQ(error_text([&] { tofa::evaluate_placement(graph, topology, {0, 1, 99, 3}); }),
            "task 2 is placed on node 99, outside 0..63");
  EXPECT_EQ(error_text([&] { tofa::evaluate_placement(graph, topology, {0, -1, 2, 3}); }),
            "task 1 is placed on node -1, outside 0..63");
  EXPECT_EQ(error_text([&] { tofa::link_loads(graph, topology, {0, 1, 2, 3, 4}); }),
            "placement has 5 entries, expected 4 tasks");
}

}  // namespace
