// The seed Bunde's mappers on an allocator's choice: scored by average hops,
// only on allocations whose nodes hold equal numbers of tasks.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "harness/stream/bunde_mappers.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::harness::bunde_mapper_hops;
using tofa::harness::bunde_mappers;

/// One mapper's score through bunde_mapper_hops (nullopt as there).
std::optional<double> hops_of(const std::string& mapper, const tofa::Topology& topology,
                              const std::vector<int>& allocation) {
  const auto hops = bunde_mapper_hops({mapper}, topology, allocation);
  if (!hops) return std::nullopt;
  return hops->at(mapper);
}

TEST(BundeMappers, RcbLaysAJobOverItsOwnShapeWithOneHopPerEdge) {
  // A 4x4 job on the 16 nodes of a 4x4 mesh, handed over in a scrambled
  // order: RCB splits job and allocation alike, so every edge is one hop.
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:4x4");
  std::vector<int> allocation;
  for (int i = 0; i < 16; ++i) allocation.push_back((i * 7) % 16);
  EXPECT_DOUBLE_EQ(*hops_of("stencil-rcb", mesh, allocation), 1.0);
  const auto all = bunde_mapper_hops(bunde_mappers(), mesh, allocation);
  ASSERT_TRUE(all.has_value());
  for (const std::string& mapper : bunde_mappers()) {
    ASSERT_TRUE(all->count(mapper)) << mapper;
    EXPECT_GE(all->at(mapper), 1.0) << mapper;  // one task per node: no edge is shorter
  }
}

TEST(BundeMappers, IncImproveNeverEndsAboveRcbOnAScatteredAllocation) {
  const tofa::Topology torus = tofa::Topology::from_spec("torus:8x8");
  std::vector<int> allocation;  // 24 nodes scattered over the torus
  for (int i = 0; i < 24; ++i) allocation.push_back((i * 37 + 5) % 64);
  const double rcb = *hops_of("stencil-rcb", torus, allocation);
  const double improved = *hops_of("stencil-incimprove", torus, allocation);
  EXPECT_LE(improved, rcb);
  EXPECT_GT(rcb, 1.0);
}

TEST(BundeMappers, UnevenAllocationsAreNotScoredAndUnknownMappersThrow) {
  tofa::Topology two_cores({4, 4}, {false, false}, 2);
  // Node 0 holds two tasks, nodes 1 and 2 one each.
  EXPECT_FALSE(hops_of("stencil-rcb", two_cores, {0, 0, 1, 2}).has_value());
  // Two tasks on each node: the seed's ranks exactly.
  EXPECT_TRUE(hops_of("stencil-rcb", two_cores, {0, 0, 1, 1, 4, 4, 5, 5}).has_value());
  EXPECT_THROW(hops_of("no-such-mapper", two_cores, {0, 1}), tofa::Error);
  EXPECT_THROW(hops_of("stencil-rcb", two_cores, {}), tofa::Error);
}

}  // namespace
