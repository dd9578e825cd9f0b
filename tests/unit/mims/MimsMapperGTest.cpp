// The "mims" strategy: packs of k = slots per node placed one per node by
// another strategy; node sharing follows the packing exactly.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "map/mapper.hpp"
#include "map/mims/mims.hpp"
#include "map/mims/strategies.hpp"

namespace {

using tofa::MappingRequest;
using tofa::Topology;

using tofa_test::error_text;

TEST(MimsMapper, NodesHoldExactlyThePacks) {
  // 4x4x8 stencil (128 tasks) on a 4x4x4 torus with 4 cores per node.
  const tofa::CommGraph graph = tofa_test::stencil_graph(4, 4, 8, 100);
  const Topology topology = Topology::from_spec("torus:4x4x4:cores=4");
  const tofa::Packing packing = tofa::mims_packing(graph, 4);
  for (const std::string place : {"tofa", "greedy", "default-slurm"}) {
    MappingRequest request;
    request.graph = &graph;
    request.topology = &topology;
    request.parameters["place"] = place;
    const tofa::Placement placement = tofa::make_mims_mapper()->map(request);
    tofa::check_placement(request, placement);
    // Two tasks share a node exactly when they share a pack.
    for (int a = 0; a < graph.task_count(); ++a)
      for (int b = a + 1; b < graph.task_count(); ++b)
        ASSERT_EQ(placement[a] == placement[b], packing.pack_of[a] == packing.pack_of[b])
            << place << ": tasks " << a << ", " << b;
    // So the placement's MIMS (nodes as groups) is the packing's.
    EXPECT_EQ(tofa::mims(graph, placement), packing.mims) << place;
    EXPECT_EQ(std::set<int>(placement.begin(), placement.end()).size(), 32u) << place;
  }
}

TEST(MimsMapper, PackSizeParameterAndFaults) {
  const tofa::CommGraph graph = tofa_test::ring_graph(12, 5);
  const Topology topology = Topology::from_spec("torus:4x4:cores=4");
  MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.parameters["pack-size"] = "2";
  request.outage.assign(16, 0.0);
  request.outage[0] = 0.5;
  const tofa::Placement placement = tofa::make_mims_mapper()->map(request);
  tofa::check_placement(request, placement);
  std::set<int> nodes(placement.begin(), placement.end());
  EXPECT_EQ(nodes.size(), 6u);  // 12 tasks in packs of 2
  EXPECT_EQ(nodes.count(0), 0u);  // tofa (default place) avoids the faulty node
}

TEST(MimsMapper, ErrorTexts) {
  const tofa::CommGraph graph = tofa_test::ring_graph(8);
  const Topology topology = Topology::from_spec("torus:4x4:cores=2");
  MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.parameters["place"] = "mims";
  EXPECT_EQ(error_text([&] { tofa::make_mims_mapper()->map(request); }),
            "mims: place=mims would pack the packs again; name another strategy");
  request.parameters["place"] = "nonesuch";
  EXPECT_EQ(error_text([&] { tofa::make_mims_mapper()->map(request); }).substr(0, 30),
            "unknown strategy 'nonesuch': e");
  request.parameters["place"] = "greedy";
  request.parameters["pack-size"] = "3";
  EXPECT_EQ(error_text([&] { tofa::make_mims_mapper()->map(request); }),
            "mims: pack-size must be an integer from 1 to the 2 slots per node, got '3'");
  request.parameters["pack-size"] = "2x";
  EXPECT_EQ(error_text([&] { tofa::make_mims_mapper()->map(request); }),
            "mims: pack-size must be an integer from 1 to the 2 slots per node, got '2x'");
}

}  // namespace
