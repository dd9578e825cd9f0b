// Interference: other jobs' link loads as Equation 1 costs, the share of a
// job's traffic that meets them, and auto steering around them.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "base/error.hpp"
#include "faults/faults.hpp"
#include "graph/graph.hpp"
#include "map/anneal/distance_table.hpp"
#include "map/mapper.hpp"
#include "metrics/interference.hpp"
#include "metrics/metrics.hpp"
#include "topology/topology.hpp"

namespace {

// A ring of 8: node i's + link goes to i+1.
tofa::Topology ring8() { return tofa::Topology::from_spec("torus:8"); }

int plus_link(const tofa::Topology& ring, int node) {
  return ring.link_id(ring.route(node, (node + 1) % 8).links.at(0));
}

// A job of two tasks that talk heavily: 1000 bytes.
tofa::CommGraph pair() { return tofa::CommGraph::from_directed_edges(2, {{0, 1, 1000, 1}}); }

TEST(Interference, LinkCostsScaleWithTheMeanLoadOfLoadedLinks) {
  std::vector<double> background = {0, 10, 30};
  const auto costs = tofa::interference_link_costs(background, 2.0);
  ASSERT_TRUE(costs);
  EXPECT_EQ(*costs, (std::vector<double>{0, 1.0, 3.0}));  // mean 20
  EXPECT_FALSE(tofa::interference_link_costs(background, 0.0));
  EXPECT_FALSE(tofa::interference_link_costs({0, 0, 0}, 1.0));
}

// auto ranks by the busiest link in bytes: a unit of link cost stands for
// mean load / weight bytes (here a cost of 1 for 20 bytes at weight 2 is 10).
TEST(Interference, AddInterferenceKeepsTheBytesAUnitOfCostStandsFor) {
  const tofa::Topology ring = ring8();
  std::vector<double> background(ring.link_slot_count(), 0.0);
  background[plus_link(ring, 0)] = 10;
  background[plus_link(ring, 1)] = 30;
  tofa::FaultCost cost;
  tofa::add_interference(cost, ring, background, 2.0);
  ASSERT_TRUE(cost.link_extra);
  EXPECT_EQ((*cost.link_extra)[plus_link(ring, 0)], 1.0);
  EXPECT_EQ((*cost.link_extra)[plus_link(ring, 1)], 3.0);
  EXPECT_EQ(cost.link_extra_bytes, 10.0);
  tofa::add_interference(cost, ring, std::vector<double>(ring.link_slot_count(), 0.0), 2.0);
  EXPECT_FALSE(cost.link_extra);
  EXPECT_EQ(cost.link_extra_bytes, 0.0);
}

TEST(Interference, ReverseLinkIdIsTheSameLinkTheOtherWay) {
  for (const char* spec : {"torus:8", "torus:4x3x5", "mesh:3x4", "torus:2x6"}) {
    const tofa::Topology topology = tofa::Topology::from_spec(spec);
    for (int node = 0; node < topology.node_count(); ++node)
      for (int next : topology.neighbours(node)) {
        const tofa::Link there = topology.route(node, next).links.at(0);
        const int back = topology.reverse_link_id(topology.link_id(there));
        const tofa::Link link = topology.link_of(back);
        EXPECT_EQ(link.from, next) << spec;
        EXPECT_EQ(link.to, node) << spec;
        EXPECT_EQ(link.dimension, there.dimension) << spec;
        EXPECT_EQ(topology.reverse_link_id(back), topology.link_id(there)) << spec;
      }
    EXPECT_THROW(topology.reverse_link_id(topology.link_slot_count()), tofa::Error);
  }
}

// With LinkSharing=shared a link's load counts both directions: traffic
// 1 -> 0 loads the link 0 -> 1 too.
TEST(Interference, SharedLinksCountTheOtherDirectionsLoad) {
  const tofa::Topology ring = ring8();
  std::vector<double> background(ring.link_slot_count(), 0.0);
  const int forward = plus_link(ring, 0);
  background[ring.reverse_link_id(forward)] = 40;
  const std::vector<double> both = tofa::both_ways(ring, background);
  EXPECT_EQ(both[forward], 40.0);
  EXPECT_EQ(both[ring.reverse_link_id(forward)], 40.0);
  EXPECT_EQ(std::count_if(both.begin(), both.end(), [](double l) { return l > 0; }), 2);
  tofa::FaultCost split, shared;
  shared.shared_links = true;
  tofa::add_interference(split, ring, background, 1.0);
  tofa::add_interference(shared, ring, background, 1.0);
  EXPECT_EQ((*split.link_extra)[forward], 0.0);
  EXPECT_EQ((*shared.link_extra)[forward], 1.0);
  EXPECT_THROW(tofa::both_ways(ring, {1.0}), tofa::Error);
}

// On TCP links a flow takes its hops times its busiest link's usage: job A's
// 1000 bytes over 4 hops (0 -> 4) take 4 x 262.5 (250 a link and 5% more of
// acknowledgements). Job B's 500 over one hop (5 -> 6) take 525, half of
// A's: A's links count fully, both ways, B's not at all; with 900 bytes
// B takes 945, 90% of A's, half way from kCriticalShare to 1.
TEST(Interference, LinkCriticalityFollowsTheSlowestFlow) {
  const tofa::Topology ring = ring8();
  const tofa::CommGraph a = tofa::CommGraph::from_directed_edges(2, {{0, 1, 1000, 1}}, tofa::Directions::Kept);
  const std::vector<int> on_a = {0, 4}, on_b = {5, 6};
  const int b_link = plus_link(ring, 5);
  for (double b_bytes : {500.0, 900.0}) {
    const tofa::CommGraph b = tofa::CommGraph::from_directed_edges(2, {{0, 1, b_bytes, 1}}, tofa::Directions::Kept);
    const auto critical = tofa::link_criticality(ring, {{&a, &on_a}, {&b, &on_b}});
    ASSERT_TRUE(critical);
    for (int node = 0; node < 4; ++node) {
      EXPECT_DOUBLE_EQ((*critical)[plus_link(ring, node)], 1.0) << node;
      EXPECT_DOUBLE_EQ((*critical)[ring.reverse_link_id(plus_link(ring, node))], 1.0) << node;
    }
    const double b_weight = b_bytes == 500 ? 0.0 : (945.0 / 1050 - tofa::kCriticalShare) / (1 - tofa::kCriticalShare);
    EXPECT_NEAR((*critical)[b_link], b_weight, 1e-12);
    EXPECT_NEAR((*critical)[ring.reverse_link_id(b_link)], b_weight, 1e-12);
    EXPECT_DOUBLE_EQ((*critical)[plus_link(ring, 4)], 0.0);
  }
  EXPECT_FALSE(tofa::link_criticality(ring, {}));
  const std::vector<int> together = {3, 3};
  EXPECT_FALSE(tofa::link_criticality(ring, {{&a, &together}}));  // nothing between nodes
}

// The strategies' routes see it as kCriticalLinkHops more hops at weight 1,
// on links shared both ways only.
TEST(Interference, CriticalLinksCostMoreOnSharedLinks) {
  const tofa::Topology ring = ring8();
  const tofa::CommGraph a = tofa::CommGraph::from_directed_edges(2, {{0, 1, 1000, 1}}, tofa::Directions::Kept);
  const std::vector<int> on_a = {0, 2};
  for (bool shared : {false, true}) {
    tofa::FaultCost cost;
    cost.shared_links = shared;
    tofa::add_interference(cost, ring, tofa::link_loads(a, ring, on_a), 2.0);
    ASSERT_TRUE(cost.link_extra);
    const double before = (*cost.link_extra)[plus_link(ring, 0)];
    tofa::add_link_criticality(cost, ring, {{&a, &on_a}}, 2.0);
    EXPECT_EQ(static_cast<bool>(cost.link_criticality), shared);
    EXPECT_DOUBLE_EQ((*cost.link_extra)[plus_link(ring, 0)], before + (shared ? 2.0 * tofa::kCriticalLinkHops : 0));
    EXPECT_DOUBLE_EQ((*cost.link_extra)[plus_link(ring, 4)], 0.0);
  }
}

TEST(Interference, EquationOneAddsTheLinkCostsAlongTheRoute) {
  const tofa::Topology ring = ring8();
  std::vector<double> extra(ring.link_slot_count(), 0.0);
  extra[plus_link(ring, 0)] = 3.0;
  tofa::FaultCost cost;
  cost.link_extra = std::make_shared<const std::vector<double>>(extra);
  EXPECT_EQ(tofa::fault_weighted_distance(ring, {}, 0, 2, cost), 2 + 3.0);
  EXPECT_EQ(tofa::fault_weighted_distance(ring, {}, 2, 0, cost), 2.0);  // the other direction
  // Each direction carries half the pair's bytes.
  EXPECT_EQ(tofa::fault_weighted_hop_bytes(ring, pair(), {0, 2}, {}, cost), 500 * 5.0 + 500 * 2.0);
  extra.pop_back();
  cost.link_extra = std::make_shared<const std::vector<double>>(extra);
  EXPECT_THROW(tofa::fault_weighted_distance(ring, {}, 0, 2, cost), tofa::Error);
}

TEST(Interference, SharedTrafficFractionCountsTheBytesOnLoadedLinks) {
  const tofa::Topology ring = ring8();
  const std::vector<double> background = tofa::link_loads(pair(), ring, {0, 1});
  EXPECT_EQ(tofa::shared_traffic_fraction(pair(), ring, {1, 0}, background), 1.0);
  EXPECT_EQ(tofa::shared_traffic_fraction(pair(), ring, {4, 5}, background), 0.0);
  // 0 -> 2 goes over 0-1 (shared) and 1-2 (free): half of its byte-hops.
  EXPECT_EQ(tofa::shared_traffic_fraction(pair(), ring, {0, 2}, background), 0.5);
}

TEST(Interference, DistanceTableAddsTheMeanOfBothDirections) {
  const tofa::Topology ring = ring8();
  std::vector<double> extra(ring.link_slot_count(), 0.0);
  extra[plus_link(ring, 0)] = 4.0;
  tofa::anneal::DistanceTable table(ring, {0, 1, 2}, tofa::DistanceMetric::Hops);
  table.add_link_costs(ring, extra);
  EXPECT_FLOAT_EQ(table.distance(0, 1), 1 + 2.0);
  EXPECT_FLOAT_EQ(table.distance(1, 0), 1 + 2.0);
  EXPECT_FLOAT_EQ(table.distance(0, 2), 2 + 2.0);
  EXPECT_FLOAT_EQ(table.distance(1, 2), 1.0);
}

// Candidates 0, 1, 4, 5: both pairs are one hop, but another job loads the
// links between 0 and 1. Blind, auto may take either; seeing the other job,
// it takes 4 and 5.
TEST(Interference, AutoMovesOffTheLinksAnotherJobLoads) {
  const tofa::Topology ring = ring8();
  const tofa::CommGraph graph = pair();
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &ring;
  request.candidate_nodes = {0, 1, 4, 5};
  request.fault_cost.link_extra =
      tofa::interference_link_costs(tofa::link_loads(graph, ring, {0, 1}), 1.0);
  const tofa::Placement placement = tofa::make_mapper("auto")->map(request);
  EXPECT_EQ(tofa::shared_traffic_fraction(graph, ring, placement, tofa::link_loads(graph, ring, {0, 1})),
            0.0)
      << placement[0] << "," << placement[1];
}

}  // namespace
