// translate_clear: a placement moved whole around the torus onto fault-free
// candidates with clear routes, its hop-bytes kept.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "faults/faults.hpp"
#include "faults/route_faults.hpp"
#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "map/portfolio/translate_clear.hpp"
#include "metrics/metrics.hpp"
#include "topology/topology.hpp"

namespace {

struct Job {
  tofa::Topology topology;
  tofa::CommGraph graph;
  std::vector<double> outage;
  tofa::MappingRequest request;

  Job(const std::string& spec, tofa::CommGraph g)
      : topology(tofa::Topology::from_spec(spec)), graph(std::move(g)),
        outage(topology.node_count(), 0.0) {}
  tofa::Placement translated(const tofa::Placement& start) {
    request.graph = &graph;
    request.topology = &topology;
    request.outage = outage;
    tofa::RouteFaults faults(topology, request.outage);
    return tofa::translate_clear(request, start, faults);
  }
};

tofa::Placement block(int tasks) {
  tofa::Placement placement(tasks);
  std::iota(placement.begin(), placement.end(), 0);
  return placement;
}

// The same offset (mod each dimension) from every node of `from` to `to`'s.
bool one_translation(const tofa::Topology& topology, const tofa::Placement& from,
                     const tofa::Placement& to) {
  const auto offset = [&](int t) {
    std::vector<int> a = topology.coords(from[t]), b = topology.coords(to[t]);
    for (int k = 0; k < topology.dimension_count(); ++k)
      a[k] = ((b[k] - a[k]) % topology.dims()[k] + topology.dims()[k]) % topology.dims()[k];
    return a;
  };
  for (std::size_t t = 1; t < from.size(); ++t)
    if (offset(t) != offset(0)) return false;
  return true;
}

TEST(TranslateClear, MovesTheBlockLayoutOffAFailingNodeWithItsHopBytes) {
  Job job("torus:8x8x8", tofa::stencil_graph({4, 4, 4}, 1000));
  job.outage[10] = 0.02;  // in the plane z = 0 that the block layout fills
  const tofa::Placement start = block(64);
  ASSERT_GT(tofa::expected_abort_probability(job.topology, job.graph, start, job.outage), 0);
  const tofa::Placement moved = job.translated(start);
  ASSERT_EQ(moved.size(), start.size());
  tofa::check_placement(job.request, moved);
  EXPECT_EQ(tofa::expected_abort_probability(job.topology, job.graph, moved, job.outage), 0);
  EXPECT_TRUE(one_translation(job.topology, start, moved));
  EXPECT_EQ(tofa::evaluate_placement(job.graph, job.topology, moved).hop_bytes,
            tofa::evaluate_placement(job.graph, job.topology, start).hop_bytes);
  // The smallest offset that clears it: one step in z (the plane z = 1 is clear).
  EXPECT_EQ(job.topology.hop_distance(start[0], moved[0]), 1);
}

TEST(TranslateClear, KeepsToTheCandidates) {
  Job job("torus:8x8x8", tofa::stencil_graph({4, 4, 4}, 1000));
  job.outage[10] = 0.02;
  // Only the planes z = 0 and z = 5 are candidates.
  for (int node = 0; node < 512; ++node)
    if (node / 64 == 0 || node / 64 == 5) job.request.candidate_nodes.push_back(node);
  const tofa::Placement moved = job.translated(block(64));
  ASSERT_EQ(moved.size(), 64u);
  for (int node : moved) EXPECT_EQ(node / 64, 5) << node;
}

TEST(TranslateClear, NoneWhenNoTranslationIsClear) {
  // A ring of 4 filled by 4 tasks: every translation uses the failing node.
  Job job("torus:4", tofa::stencil_graph({4}, 1000));
  job.outage[2] = 0.1;
  EXPECT_TRUE(job.translated(block(4)).empty());
}

TEST(TranslateClear, NoneOnAMesh) {
  // On a mesh a translation can change which routes stay inside the job.
  Job job("mesh:8x8", tofa::stencil_graph({2, 2}, 1000));
  job.outage[0] = 0.1;
  EXPECT_TRUE(job.translated({0, 1, 8, 9}).empty());
}

TEST(TranslateClear, RoutesClearNotOnlyNodes) {
  // Tasks 0 and 2 of a ring of 8 talk over node 1; node 1 may fail. A shift
  // by one puts them on 1 and 3; by two on 2 and 4, clear; by minus one on
  // 7 and 1. The nearest clear one is two steps away either way.
  Job job("torus:8", tofa::CommGraph::from_directed_edges(2, {{0, 1, 1000, 1}}));
  job.outage[1] = 0.1;
  const tofa::Placement moved = job.translated({0, 2});
  ASSERT_EQ(moved.size(), 2u);
  EXPECT_EQ(tofa::expected_abort_probability(job.topology, job.graph, moved, job.outage), 0);
  EXPECT_EQ(job.topology.hop_distance(0, moved[0]), 2);
}

}  // namespace
