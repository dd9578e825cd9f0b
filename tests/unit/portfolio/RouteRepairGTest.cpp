// clear_routes: the crossing edges moved off the failing nodes' routes,
// judged by walking every route, not by the tables it uses.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "faults/faults.hpp"
#include "faults/route_faults.hpp"
#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "map/portfolio/route_repair.hpp"
#include "topology/topology.hpp"

namespace {

// Edges whose route either way passes a node that may fail, plus tasks on one.
int crossings(const tofa::Topology& topology, const tofa::CommGraph& graph,
              const tofa::Placement& placement, const std::vector<double>& outage) {
  std::vector<int> path;
  int count = 0;
  for (int task = 0; task < graph.task_count(); ++task) {
    count += outage[placement[task]] > 0;
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      const int partner = graph.adjacency()[k];
      if (partner <= task) continue;
      bool crossed = false;
      for (const auto& [from, to] : {std::pair{placement[task], placement[partner]},
                                     std::pair{placement[partner], placement[task]}}) {
        topology.route_nodes(from, to, path);
        crossed |= std::any_of(path.begin(), path.end(), [&](int n) { return outage[n] > 0; });
      }
      count += crossed;
    }
  }
  return count;
}

TEST(ClearRoutes, MovesATaskOffARouteThroughAFailingNode) {
  const tofa::Topology ring = tofa::Topology::from_spec("torus:8");
  const tofa::CommGraph graph = tofa::CommGraph::from_directed_edges(2, {{0, 1, 1000, 1}});
  std::vector<double> outage(8, 0.0);
  outage[3] = 0.1;
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &ring;
  request.outage = outage;
  tofa::RouteFaults faults(ring, request.outage);
  const tofa::Placement start{2, 4};  // R(2,4) passes node 3
  ASSERT_EQ(crossings(ring, graph, start, outage), 1);
  const tofa::Placement cleared = tofa::clear_routes(request, start, faults, 0);
  tofa::check_placement(request, cleared);
  EXPECT_EQ(crossings(ring, graph, cleared, outage), 0);
  EXPECT_EQ(tofa::expected_abort_probability(ring, graph, cleared, outage), 0);
  // Of the clear placements, one move from the start with the fewest hops: a neighbour.
  EXPECT_EQ(ring.hop_distance(cleared[0], cleared[1]), 1);
}

TEST(ClearRoutes, TakesTasksOffNodesThatMayFail) {
  const tofa::Topology ring = tofa::Topology::from_spec("torus:8");
  const tofa::CommGraph graph = tofa::CommGraph::from_directed_edges(2, {{0, 1, 1000, 1}});
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &ring;
  request.outage.assign(8, 0.0);
  request.outage[5] = 0.2;
  tofa::RouteFaults faults(ring, request.outage);
  const tofa::Placement cleared = tofa::clear_routes(request, {5, 6}, faults, 0);
  EXPECT_EQ(crossings(ring, graph, cleared, request.outage), 0);
  EXPECT_NE(cleared[0], 5);
}

TEST(ClearRoutes, LeavesTheStartWhenTheFaultFreeCandidatesCannotHoldTheJob) {
  const tofa::Topology ring = tofa::Topology::from_spec("torus:8");
  const tofa::CommGraph graph = tofa::CommGraph::from_directed_edges(3, {{0, 1, 10, 1}, {1, 2, 10, 1}});
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &ring;
  request.candidate_nodes = {0, 1, 2};
  request.outage.assign(8, 0.0);
  request.outage[1] = 0.1;
  tofa::RouteFaults faults(ring, request.outage);
  const tofa::Placement start{0, 1, 2};
  EXPECT_EQ(tofa::clear_routes(request, start, faults, 0), start);
}

// Random jobs on half of a torus with failing nodes among the candidates:
// never more crossings than the start, and none in nearly every case.
TEST(ClearRoutes, ClearsRandomJobsOnABusyTorusWithFailingNodes) {
  const tofa::Topology torus = tofa::Topology::from_spec("torus:8x8x4");
  std::mt19937 random(11);
  int started_crossing = 0, cleared = 0;
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<int> nodes(torus.node_count());
    for (int n = 0; n < torus.node_count(); ++n) nodes[n] = n;
    std::shuffle(nodes.begin(), nodes.end(), random);
    tofa::MappingRequest request;
    request.topology = &torus;
    request.candidate_nodes.assign(nodes.begin(), nodes.begin() + 128);
    request.outage.assign(torus.node_count(), 0.0);
    for (int k = 0; k < 6; ++k) request.outage[request.candidate_nodes[k]] = 0.02;
    const tofa::CommGraph graph = tofa::random_regular_graph(40, 3, 1000, 100 + trial);
    request.graph = &graph;
    tofa::Placement start(request.candidate_nodes.begin(), request.candidate_nodes.begin() + 40);
    std::shuffle(start.begin(), start.end(), random);
    tofa::RouteFaults faults(torus, request.outage);
    const tofa::Placement result = tofa::clear_routes(request, start, faults, 0);
    tofa::check_placement(request, result);
    const int before = crossings(torus, graph, start, request.outage);
    const int after = crossings(torus, graph, result, request.outage);
    EXPECT_LE(after, before) << "trial " << trial;
    started_crossing += before > 0;
    cleared += before > 0 && after == 0;
  }
  ASSERT_GE(started_crossing, 35);
  EXPECT_GE(cleared, started_crossing - 2);
}

}  // namespace
