// Rubik's permutations: tilt, zigzag and zorder (seed Bhatele et al., III-D,
// Figs. 7-9), at any level of a tree, and every operation is a permutation.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "rubik_test_util.hpp"

namespace {

using rubik_test::error_text;
using rubik_test::ranks;
using rubik_test::where;
using tofa::rubik::Box;
using tofa::rubik::Tree;
using Ranks = std::vector<std::int64_t>;

constexpr int Z = 0, Y = 1, X = 2;  // the seed's Fig. 8 listing: Z, Y, X = 0, 1, 2

TEST(RubikPermute, TwoTiltsOfFigure8) {
  Tree net({4, 4, 4});  // cell (z, y, x) starts with rank 16z + 4y + x
  net.root().tilt(Z, X, 1);
  // Z plane z is rotated by z along X: rank (z, y, x) now sits at x + z, so
  // the ranks of a Z column (same y, x) step diagonally through the box.
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x)
        ASSERT_EQ(where(net, 16 * z + 4 * y + x), (std::vector<int>{z, y, (x + z) % 4}));
  net.root().tilt(X, Y, 1);
  // X plane (new x = x') is rotated by x' along Y:
  // rank (z, y, x) -> (z, (y + (x + z) % 4) % 4, (x + z) % 4).
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int xx = (x + z) % 4;
        ASSERT_EQ(where(net, 16 * z + 4 * y + x), (std::vector<int>{z, (y + xx) % 4, xx}));
      }
  // Hand-checked: rank 1 = (0,0,1) -> (0,0,1) -> (0,1,1); rank 63 = (3,3,3)
  // -> (3,3,2) -> (3,1,2).
  EXPECT_EQ(where(net, 1), (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(where(net, 63), (std::vector<int>{3, 1, 2}));
}

TEST(RubikPermute, ZigzagShiftsOnlyOddPlanes) {
  Tree box({2, 4});
  box.root().zigzag(0, 1, 1);
  // Row 0 stays; row 1 (4 5 6 7) moves one cell along dimension 1, circularly.
  EXPECT_EQ(box.elements(), (Ranks{0, 1, 2, 3, 7, 4, 5, 6}));
  Tree three({4, 3});
  three.root().zigzag(0, 1, 2);
  // Rows 1 and 3 rotate by 2: (3 4 5) -> (4 5 3), (9 10 11) -> (10 11 9).
  EXPECT_EQ(three.elements(), (Ranks{0, 1, 2, 4, 5, 3, 6, 7, 8, 10, 11, 9}));
}

TEST(RubikPermute, ZorderLaysRanksAlongTheMortonCurve) {
  Tree box({4, 4});
  box.root().zorder();
  // Morton order of (row, col): (0,0) (0,1) (1,0) (1,1) (0,2) (0,3) (1,2)
  // (1,3) (2,0) ...: rank j goes to the j-th of these cells.
  EXPECT_EQ(box.elements(), (Ranks{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}));
  // Any shape: ranks 0..3 of a 3x5 box fill the 2x2 corner first.
  Tree odd({3, 5});
  odd.root().zorder();
  for (int rank = 0; rank < 4; ++rank) {
    const std::vector<int> at = where(odd, rank);
    EXPECT_LT(at[0], 2);
    EXPECT_LT(at[1], 2);
  }
}

TEST(RubikPermute, HierarchicalPermutationsOfFigure9) {
  // 192 tasks, three 4x4x4 children; a different permutation on each.
  Tree net({12, 4, 4});
  net.root().div({3, 1, 1});
  const Ranks before0 = ranks(net.root().child(0)), before2 = ranks(net.root().child(2));
  net.root().child(1).tilt(Z, X, 1);
  EXPECT_EQ(ranks(net.root().child(0)), before0);  // untouched
  EXPECT_EQ(ranks(net.root().child(2)), before2);
  // Child 1 starts at rank 64; its local (1, 0, 0) holds 64 + 16 and moved to x = 1.
  EXPECT_EQ(where(net, 80), (std::vector<int>{5, 0, 1}));
  net.root().child(0).zorder();
  net.root().child(2).zigzag(Z, Y, 1);
  Ranks all = net.elements();
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], static_cast<std::int64_t>(i));
}

/// Every box of the tree.
void collect(Box& box, std::vector<Box*>& out) {
  out.push_back(&box);
  for (std::size_t i = 0; i < box.child_count(); ++i) collect(box.child(i), out);
}

TEST(RubikPermute, EveryOperationIsAPermutation) {
  std::mt19937 engine(99);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(engine); };
  for (int trial = 0; trial < 60; ++trial) {
    const int dims = 1 + pick(4);
    std::vector<int> shape(dims);
    for (int& extent : shape) extent = 1 + pick(4);
    Tree tree(shape);
    for (int step = 0; step < 12; ++step) {
      std::vector<Box*> boxes;
      collect(tree.root(), boxes);
      Box& box = *boxes[pick(static_cast<int>(boxes.size()))];
      const int d = static_cast<int>(box.shape().size());
      std::vector<int> divisors(d);
      for (int i = 0; i < d; ++i) {  // a random divisor of each extent
        std::vector<int> options;
        for (int v = 1; v <= box.shape()[i]; ++v)
          if (box.shape()[i] % v == 0) options.push_back(v);
        divisors[i] = options[pick(static_cast<int>(options.size()))];
      }
      const int a = pick(d), b = (a + 1 + pick(std::max(1, d - 1))) % d;
      switch (pick(7)) {
        case 0: if (box.is_leaf()) box.div(divisors); break;
        case 1: if (box.is_leaf()) box.mod(divisors); break;
        case 2: if (box.is_leaf()) box.cut(divisors, std::vector<tofa::rubik::Slicing>(d, pick(2) ? tofa::rubik::Slicing::Div : tofa::rubik::Slicing::Mod)); break;
        case 3: if (d > 1) box.tilt(a, b, pick(5) - 2); break;
        case 4: if (d > 1) box.zigzag(a, b, 1 + pick(3)); break;
        default: box.zorder(); break;
      }
      Ranks all = tree.elements();
      std::sort(all.begin(), all.end());
      for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], static_cast<std::int64_t>(i)) << "trial " << trial;
      // The leaves cover every cell exactly once.
      std::vector<int> covered(tree.size(), 0);
      for (const Box* leaf : tree.leaves())
        for (std::int64_t cell : leaf->cells()) ++covered[cell];
      for (int count : covered) ASSERT_EQ(count, 1) << "trial " << trial;
    }
  }
}

TEST(RubikPermute, Errors) {
  Tree box({4, 4, 4});
  EXPECT_EQ(error_text([&] { box.root().tilt(Z, Z, 1); }),
            "tilt: the hyperplanes and the shift need two different dimensions, got 0 twice");
  EXPECT_EQ(error_text([&] { box.root().zigzag(3, 0, 1); }),
            "zigzag: dimension 3 is outside 0..2 of the 4x4x4 box");
}

}  // namespace
