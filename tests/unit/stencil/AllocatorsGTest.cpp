// The allocators of seed Bunde's simulation: MC1x1 and snake best fit, the
// snake curve, and fragmented machines.
#include <gtest/gtest.h>

#include "fixtures.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "alloc/allocators.hpp"
#include "base/error.hpp"

namespace {

using tofa::Topology;

using tofa_test::error_text;

std::vector<int> sorted(std::vector<int> nodes) {
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

TEST(Mc1x1, IdleMeshGivesOddSquares) {
  const Topology mesh = Topology::from_spec("mesh:9x9");
  // 9 nodes: every center with room for a full 3x3 shell scores 0 + 8*1
  // shells and 4*1 + 4*2 L1; the lowest such center is (1,1) = id 10, and
  // the order is center, then L1 = 1 (ids 1, 9, 11, 19), then the corners.
  EXPECT_EQ(tofa::allocate_mc1x1(mesh, {}, 9),
            (std::vector<int>{10, 1, 9, 11, 19, 0, 2, 18, 20}));
  // 25 nodes: the 5x5 square around (2,2).
  std::vector<int> square;
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 5; ++x) square.push_back(x + 9 * y);
  EXPECT_EQ(sorted(tofa::allocate_mc1x1(mesh, {}, 25)), square);
  // 10 nodes: 3x3 around (1,1) plus the shell-2 node nearest in L1 with the
  // lowest id: (3,1) = 12 (its twin (1,3) is 28).
  const std::vector<int> ten = tofa::allocate_mc1x1(mesh, {}, 10);
  EXPECT_EQ(ten.back(), 12);
}

TEST(Mc1x1, BusyNodesBecomeHoles) {
  const Topology mesh = Topology::from_spec("mesh:5x5");
  // Everything busy except the left column (x = 0) and node (1,2) = 11.
  std::vector<bool> busy(25, true);
  for (int y = 0; y < 5; ++y) busy[5 * y] = false;
  busy[11] = false;
  // Center (0,2) = 10 reaches 11 and (0,1), (0,3) in shell 1 and (0,0), (0,4)
  // in shell 2: shells 0+1+1+1+2+2 = 7, the smallest possible for 6 nodes here.
  EXPECT_EQ(tofa::allocate_mc1x1(mesh, busy, 6), (std::vector<int>{10, 5, 11, 15, 0, 20}));
}

TEST(Mc1x1, TorusDistancesWrap) {
  const Topology ring = Topology::from_spec("torus:10");
  std::vector<bool> busy(10, true);
  for (int node : {9, 0, 1, 5}) busy[node] = false;
  // 9, 0, 1 are neighbours across the seam: center 0 takes 0, then 1 and 9.
  EXPECT_EQ(tofa::allocate_mc1x1(ring, busy, 3), (std::vector<int>{0, 1, 9}));
}

TEST(SnakeCurve, WalksTheShortestAxisFirst) {
  // 3x2 mesh: y is shorter, so the curve runs up x=0, down x=1, up x=2:
  // (0,0) (0,1) (1,1) (1,0) (2,0) (2,1) = ids 0 3 4 1 2 5.
  EXPECT_EQ(tofa::snake_curve(Topology::from_spec("mesh:3x2")),
            (std::vector<int>{0, 3, 4, 1, 2, 5}));
  const Topology torus = Topology::from_spec("torus:4x3x5");
  const std::vector<int> curve = tofa::snake_curve(torus);
  EXPECT_EQ(sorted(curve).size(), 60u);
  for (int k = 0; k < 60; ++k) EXPECT_EQ(sorted(curve)[k], k);
  for (std::size_t k = 1; k < curve.size(); ++k)
    EXPECT_EQ(torus.hop_distance(curve[k - 1], curve[k]), 1) << k;
  // Shortest axis (y, 3) first, then x (4), then z (5): the z = 0 layer
  // ends at (3,0,0) after 12 nodes and the z = 1 layer starts above it.
  EXPECT_EQ(curve[1], torus.node_at({0, 1, 0}));
  EXPECT_EQ(curve[3], torus.node_at({1, 2, 0}));
  EXPECT_EQ(curve[11], torus.node_at({3, 0, 0}));
  EXPECT_EQ(curve[12], torus.node_at({3, 0, 1}));
}

TEST(SnakeBestFit, SmallestRunThatFitsElseSmallestSpan) {
  // 4x2 mesh, curve 0 4 5 1 2 6 7 3 (positions 0..7). Busy: 5 and 2
  // (positions 2 and 4), so the free runs are {0,4} {1} {6,7,3}.
  const Topology mesh = Topology::from_spec("mesh:4x2");
  ASSERT_EQ(tofa::snake_curve(mesh), (std::vector<int>{0, 4, 5, 1, 2, 6, 7, 3}));
  std::vector<bool> busy(8, false);
  busy[5] = busy[2] = true;
  EXPECT_EQ(tofa::allocate_snake_best_fit(mesh, busy, 1), (std::vector<int>{1}));
  EXPECT_EQ(tofa::allocate_snake_best_fit(mesh, busy, 2), (std::vector<int>{0, 4}));
  EXPECT_EQ(tofa::allocate_snake_best_fit(mesh, busy, 3), (std::vector<int>{6, 7, 3}));
  // No run of 4: windows of free positions (0,1,3,5) span 5, (1,3,5,6) span 5,
  // (3,5,6,7) span 4 -> nodes 1 6 7 3.
  EXPECT_EQ(tofa::allocate_snake_best_fit(mesh, busy, 4), (std::vector<int>{1, 6, 7, 3}));
  EXPECT_EQ(tofa::allocate_snake_best_fit(mesh, {}, 8), tofa::snake_curve(mesh));
}

TEST(Allocators, ErrorTexts) {
  const Topology mesh = Topology::from_spec("mesh:4x2");
  std::vector<bool> busy(8, true);
  busy[3] = false;
  EXPECT_EQ(error_text([&] { tofa::allocate_mc1x1(mesh, busy, 2); }),
            "mc1x1: cannot allocate 2 nodes, only 1 are free");
  EXPECT_EQ(error_text([&] { tofa::allocate_snake_best_fit(mesh, {}, 0); }),
            "snake-best-fit: cannot allocate 0 nodes");
  EXPECT_EQ(error_text([&] { tofa::allocate_snake_best_fit(mesh, std::vector<bool>(5), 1); }),
            "snake-best-fit: busy has 5 entries, expected one per node (8)");
}

TEST(Allocators, FragmentedMachineIsDeterministicAndPartlyFull) {
  const Topology mesh = Topology::from_spec("mesh:16x16");
  for (tofa::Allocator allocator : {tofa::allocate_mc1x1, tofa::allocate_snake_best_fit}) {
    const auto busy = tofa::fragmented_machine(mesh, allocator, 0.6, 24, 9);
    EXPECT_EQ(busy, tofa::fragmented_machine(mesh, allocator, 0.6, 24, 9));
    const long count = std::count(busy.begin(), busy.end(), true);
    // About half of the >= 154 nodes placed stay busy.
    EXPECT_GT(count, 20);
    EXPECT_LT(count, 180);
    const auto job = allocator(mesh, busy, 50);
    for (int node : job) EXPECT_FALSE(busy[node]);
  }
  const auto idle = tofa::fragmented_machine(mesh, tofa::allocate_mc1x1, 0, 5, 1);
  EXPECT_EQ(std::count(idle.begin(), idle.end(), true), 0);
}

}  // namespace
