// From a Rubik network tree to nodes and files: placement on a topology,
// the map file, MPICH_RANK_ORDER, SLURM_HOSTFILE, and the "rubik" strategy.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "fixtures.hpp"
#include "map/mapper.hpp"
#include "map/rubik/strategies.hpp"
#include "rubik_test_util.hpp"

namespace {

using rubik_test::error_text;
using tofa::Topology;
using tofa::rubik::Tree;

template <typename Write>
std::string written(Write write) {
  std::ostringstream out;
  write(out);
  return out.str();
}

TEST(RubikWriters, MapFileAndRankOrderOfATiltedBox) {
  Tree box({2, 2, 2});  // (x, y, core)
  box.root().tilt(0, 1, 1);  // plane x = 1 rotates by one along y
  // Cells in row-major order now hold 0 1 2 3 | 6 7 4 5.
  ASSERT_EQ(box.elements(), (std::vector<std::int64_t>{0, 1, 2, 3, 6, 7, 4, 5}));
  EXPECT_EQ(written([&](std::ostream& out) { tofa::rubik::write_map_file(out, box); }),
            "0 0 0\n0 0 1\n0 1 0\n0 1 1\n1 1 0\n1 1 1\n1 0 0\n1 0 1\n");
  // Without a topology: row-major cell order, runs as ranges.
  EXPECT_EQ(written([&](std::ostream& out) { tofa::rubik::write_mpich_rank_order(out, box); }),
            "0-3,6-7,4-5\n");
  // On mesh 2x2 with 2 cores: node id = x + 2y, so nodes in id order are
  // (0,0) (1,0) (0,1) (1,1), holding 0 1 | 6 7 | 2 3 | 4 5.
  const Topology mesh = Topology::from_spec("mesh:2x2:cores=2");
  EXPECT_EQ(written([&](std::ostream& out) { tofa::rubik::write_mpich_rank_order(out, box, mesh, 2); }),
            "0-1,6-7,2-5\n");
  const tofa::Placement placement = tofa::rubik::placement_on(box, mesh, 2);
  EXPECT_EQ(placement, (tofa::Placement{0, 0, 2, 2, 3, 3, 1, 1}));
  EXPECT_EQ(written([&](std::ostream& out) { tofa::rubik::write_hostfile(out, placement, mesh); }),
            "n0\nn0\nn2\nn2\nn3\nn3\nn1\nn1\n");
}

TEST(RubikWriters, PlacementChecksTheShape) {
  const Topology torus = Topology::from_spec("torus:4x4:cores=2");
  Tree too_many_dims({2, 2, 2, 2});
  EXPECT_EQ(error_text([&] { tofa::rubik::placement_on(too_many_dims, torus, 2); }),
            "the network box 2x2x2x2 has 4 dimensions; the topology (" + torus.describe() +
                ") needs 2, or 3 with a last dimension for the cores of a node");
  Tree too_wide({8, 2});
  EXPECT_EQ(error_text([&] { tofa::rubik::placement_on(too_wide, torus, 2); }),
            "the network box 8x2 is larger than the topology in dimension 0 (8 > 4)");
  Tree too_many_cores({4, 4, 3});
  EXPECT_EQ(error_text([&] { tofa::rubik::placement_on(too_many_cores, torus, 2); }),
            "the network box 4x4x3 puts 3 ranks on a node, which has 2 slots");
  // A smaller box sits at the origin, one rank per node.
  Tree corner({2, 2});
  EXPECT_EQ(tofa::rubik::placement_on(corner, torus, 2), (tofa::Placement{0, 4, 1, 5}));
}

TEST(RubikStrategy, MapsTheSpecsLayout) {
  // pF3D-like: 4x4x4 app in 4x4 planes onto a 2x2x4 torus with 4 cores,
  // each plane on a 2x2 slab of nodes x 4 cores, then tilted.
  tofa_test::TempFile spec(
      "X, Y, Z, T = 0, 1, 2, 3\n"
      "app = box([4, 4, 4])\n"
      "app.tile([4, 4, 1])\n"
      "torus = box([2, 2, 4, 4])\n"
      "torus.tile([2, 2, 1, 4])\n"
      "torus.map(app)\n"
      "torus.tilt(Z, X, 1)\n",
      ".rubik");
  const tofa::CommGraph graph = tofa_test::stencil_graph(4, 4, 4);
  const Topology topology = Topology::from_spec("torus:2x2x4:cores=4");
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.parameters["spec"] = spec.path();
  const tofa::Placement placement = tofa::make_rubik_mapper()->map(request);
  tofa::check_placement(request, placement);
  // App rank r = 16x + 4y + z is in plane z, which maps to torus z-slab z:
  // every node of the placement has coordinate z equal to the rank's z.
  for (int r = 0; r < 64; ++r) EXPECT_EQ(topology.coords(placement[r])[2], r % 4) << r;

  request.parameters.erase("spec");
  EXPECT_EQ(error_text([&] { tofa::make_rubik_mapper()->map(request); }),
            "rubik: name the spec file with the parameter spec=FILE");
  const tofa::CommGraph small = tofa_test::ring_graph(8);
  request.graph = &small;
  request.parameters["spec"] = spec.path();
  EXPECT_EQ(error_text([&] { tofa::make_rubik_mapper()->map(request); }),
            "rubik: " + spec.path() + " lays out 64 ranks (box 'torus'), but the graph has 8 tasks");
}

}  // namespace
