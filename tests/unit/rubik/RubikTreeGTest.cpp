// Rubik partition trees: div, tile, mod and cut (seed Bhatele et al., III-A,
// III-B and Figs. 4 and 5) on a 4x4x4 box, whose cell (x, y, z) holds rank
// 16x + 4y + z (row-major, last dimension fastest).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "rubik_test_util.hpp"

namespace {

using rubik_test::error_text;
using rubik_test::ranks;
using tofa::rubik::Slicing;
using tofa::rubik::Tree;
using Ranks = std::vector<std::int64_t>;

TEST(RubikTree, DivCutsA4x4x4BoxIntoEightLeavesOfEight) {
  Tree tree({4, 4, 4});
  tree.root().div({2, 2, 2});
  const auto leaves = tree.leaves();
  ASSERT_EQ(leaves.size(), 8u);
  for (const auto* leaf : leaves) EXPECT_EQ(leaf->shape(), (std::vector<int>{2, 2, 2}));
  // Leaf (0,0,0) is x, y, z in {0,1}; leaf (1,1,1), the last, in {2,3}.
  EXPECT_EQ(ranks(*leaves[0]), (Ranks{0, 1, 4, 5, 16, 17, 20, 21}));
  EXPECT_EQ(ranks(*leaves[7]), (Ranks{42, 43, 46, 47, 58, 59, 62, 63}));
  // The cell at x is in child x / 2 in every dimension.
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    for (std::int64_t cell : leaves[i]->cells()) {
      const std::vector<int> at = tree.coordinates(cell);
      EXPECT_EQ(static_cast<std::size_t>((at[0] / 2) * 4 + (at[1] / 2) * 2 + at[2] / 2), i);
    }
  }
}

TEST(RubikTree, TileMakesTheSameBoxesAsDiv) {
  Tree by_div({4, 4, 4}), by_tile({4, 4, 4});
  by_div.root().div({2, 2, 2});
  by_tile.root().tile({2, 2, 2});
  const auto a = by_div.leaves(), b = by_tile.leaves();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i]->cells(), b[i]->cells());
  // A non-cubic tile: 9x3x8 into 9x3x1 planes gives 8 planes z = 0..7.
  Tree app({9, 3, 8});
  app.root().tile({9, 3, 1});
  ASSERT_EQ(app.leaves().size(), 8u);
  for (std::int64_t rank : ranks(*app.leaves()[5])) EXPECT_EQ(rank % 8, 5);
}

TEST(RubikTree, HierarchicalDivOfFigure4) {
  // div along the third dimension into two boxes of 32, then each into 4 of 8.
  Tree tree({4, 4, 4});
  tree.root().div({1, 1, 2});
  ASSERT_EQ(tree.root().child_count(), 2u);
  for (std::size_t i = 0; i < 2; ++i) tree.root().child(i).div({2, 2, 1});
  const auto leaves = tree.leaves();
  ASSERT_EQ(leaves.size(), 8u);
  for (const auto* leaf : leaves) EXPECT_EQ(leaf->size(), 8);
  // Breadth-first: child 0's leaves first. Its leaf (0,1,0) is x in {0,1},
  // y in {2,3}, z in {0,1}.
  EXPECT_EQ(ranks(*leaves[1]), (Ranks{8, 9, 12, 13, 24, 25, 28, 29}));
  // Child 1 (z in {2,3}) starts at the fifth leaf.
  EXPECT_EQ(ranks(*leaves[4]), (Ranks{2, 3, 6, 7, 18, 19, 22, 23}));
  EXPECT_EQ(&tree.root().child(std::vector<int>{0, 0, 1}), &tree.root().child(1));
}

TEST(RubikTree, ModInterleavesAndCutMixes) {
  Tree by_mod({4, 4, 4});
  by_mod.root().mod({2, 2, 2});
  // Child (0,0,0) holds the cells whose coordinates are all even.
  EXPECT_EQ(ranks(by_mod.root().child(0)), (Ranks{0, 2, 8, 10, 32, 34, 40, 42}));
  Tree by_cut({4, 4, 4});
  by_cut.root().cut({2, 2, 2}, {Slicing::Div, Slicing::Div, Slicing::Mod});
  // Child (0,0,1): x, y in {0,1} (contiguous), z odd (interleaved).
  EXPECT_EQ(ranks(by_cut.root().child(1)), (Ranks{1, 3, 5, 7, 17, 19, 21, 23}));
}

TEST(RubikTree, PartitionErrors) {
  Tree tree({4, 4, 4});
  EXPECT_EQ(error_text([&] { tree.root().div({3, 2, 2}); }),
            "div: dimension 0 of size 4 is not divisible by 3");
  EXPECT_EQ(error_text([&] { tree.root().div({2, 2}); }),
            "div: expected 3 divisors (one per dimension of the 4x4x4 box), got 2");
  EXPECT_EQ(error_text([&] { tree.root().tile({4, 3, 4}); }),
            "tile: dimension 1 of size 4 is not a multiple of the tile size 3");
  EXPECT_EQ(error_text([&] { tree.root().mod({2, 0, 1}); }),
            "mod: divisor 0 in dimension 1 must be at least 1");
  tree.root().div({2, 1, 1});
  EXPECT_EQ(error_text([&] { tree.root().tile({2, 2, 2}); }),
            "tile: the box is already divided into 2 children");
  EXPECT_EQ(error_text([&] { tree.root().child(2); }),
            "child 2 does not exist: the box has 2 children");
  EXPECT_EQ(error_text([&] { tree.root().child(std::vector<int>{0, 1, 0}); }),
            "child index 1 in dimension 1 is outside 0..0");
  EXPECT_EQ(error_text([] { Tree bad({4, 0}); }),
            "box: every dimension needs a size of at least 1, got 0");
}

}  // namespace
