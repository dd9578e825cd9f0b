#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "fixtures.hpp"
#include "map/portfolio/candidate_window.hpp"
#include "topology/topology.hpp"

using tofa::CommGraph;
using tofa::MappingRequest;
using tofa::Topology;
using tofa_test::request_on;

namespace {

int widest_pair(const Topology& topology, const std::vector<int>& nodes) {
  int widest = 0;
  for (int a : nodes)
    for (int b : nodes) widest = std::max(widest, topology.hop_distance(a, b));
  return widest;
}

}  // namespace

TEST(CandidateWindow, FewCandidatesAreSearchedWhole) {
  const Topology topology = Topology::from_spec("torus:8x8x4");
  const CommGraph graph = tofa_test::random_sparse_graph(64, 3);
  EXPECT_TRUE(tofa::candidate_window(request_on(topology, graph)).empty());
}

// 64 tasks on a 16,384-node torus: 256 fault-free candidates close together,
// in the request's candidate order.
TEST(CandidateWindow, AJobOnALargeMachineGetsACompactFaultFreeBall) {
  const Topology topology = Topology::from_spec("torus:32x32x16");
  const CommGraph graph = tofa_test::random_sparse_graph(64, 3);
  MappingRequest request = request_on(topology, graph);
  for (int node = 0; node < topology.node_count(); node += 2) request.candidate_nodes.push_back(node);
  std::reverse(request.candidate_nodes.begin(), request.candidate_nodes.end());
  for (int node = 0; node < topology.node_count(); node += 10) request.outage[node] = 0.02;
  const std::vector<int> window = tofa::candidate_window(request);
  ASSERT_EQ(window.size(), 256u);
  for (int node : window) {
    EXPECT_EQ(node % 2, 0) << node << " is not a candidate";
    EXPECT_EQ(request.outage[node], 0.0) << node << " may fail";
  }
  EXPECT_TRUE(std::is_sorted(window.rbegin(), window.rend())) << "not in candidate order";
  // 256 of every other node fill a ball of radius 7 (diameter 14); the
  // torus is 40 hops across.
  EXPECT_LE(widest_pair(topology, window), 16);
}

// Failing nodes over half of the machine: the window lies in the other half
// (a ball centered at its edge may touch the border).
TEST(CandidateWindow, TheBallAvoidsRegionsWithFailingNodes) {
  const Topology topology = Topology::from_spec("torus:32x32x16");
  const CommGraph graph = tofa_test::random_sparse_graph(64, 3);
  MappingRequest request = request_on(topology, graph);
  for (int node = 0; node < topology.node_count(); ++node)
    if (topology.coords(node)[0] < 16 && node % 7 == 0) request.outage[node] = 0.02;
  int in_failing_half = 0;
  for (int node : tofa::candidate_window(request)) in_failing_half += topology.coords(node)[0] < 16;
  EXPECT_LE(in_failing_half, 256 / 20);
}

// When the fault-free candidates cannot hold the job, every candidate counts.
TEST(CandidateWindow, FailingNodesJoinWhenTheRestCannotHoldTheJob) {
  const Topology topology = Topology::from_spec("torus:32x32x16");
  const CommGraph graph = tofa_test::random_sparse_graph(64, 3);
  MappingRequest request = request_on(topology, graph);
  for (int node = 0; node < topology.node_count(); ++node)
    if (node % 300 != 0) request.outage[node] = 0.02;  // 55 fault-free nodes
  const std::vector<int> window = tofa::candidate_window(request);
  ASSERT_EQ(window.size(), 256u);
  EXPECT_TRUE(std::any_of(window.begin(), window.end(),
                          [&](int node) { return request.outage[node] > 0; }));
}
