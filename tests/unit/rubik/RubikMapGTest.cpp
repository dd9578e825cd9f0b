// Rubik's map (seed Bhatele et al., III-C, Fig. 6): compatible trees pair
// their leaves breadth-first and copy ranks in row-major order.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "rubik_test_util.hpp"

namespace {

using rubik_test::error_text;
using rubik_test::where;
using tofa::rubik::Tree;

TEST(RubikMap, PlanesOfTheAppBecomeCubesOfTheNetwork) {
  // app = box([9,3,8]); app.tile([9,3,1])   -> 8 planes of 27 tasks (z = 0..7)
  // network = box([6,6,6]); network.tile([3,3,3]) -> 8 cubes of 27 processors
  Tree app({9, 3, 8});
  app.root().tile({9, 3, 1});
  Tree network({6, 6, 6});
  network.root().tile({3, 3, 3});
  ASSERT_TRUE(network.compatible(app));
  network.map(app);
  // Rank r = 24x + 8y + z is element p = 3x + y of plane z; plane z goes to
  // cube z, whose grid index is (z/4, z/2 mod 2, z mod 2), and element p to
  // cell (p/9, p/3 mod 3, p mod 3) of the cube.
  for (int x = 0; x < 9; ++x)
    for (int y = 0; y < 3; ++y)
      for (int z = 0; z < 8; ++z) {
        const int p = 3 * x + y;
        const std::vector<int> expected = {3 * (z / 4) + p / 9, 3 * ((z / 2) % 2) + (p / 3) % 3,
                                           3 * (z % 2) + p % 3};
        ASSERT_EQ(where(network, 24 * x + 8 * y + z), expected) << x << "," << y << "," << z;
      }
  // Hand-checked corners: rank 0 -> (0,0,0); rank 1 (plane 1) -> cube (0,0,1)
  // at (0,0,3); rank 8 (x=0, y=1, z=0) -> (0,0,1); rank 215 -> (5,5,5).
  EXPECT_EQ(where(network, 1), (std::vector<int>{0, 0, 3}));
  EXPECT_EQ(where(network, 8), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(where(network, 215), (std::vector<int>{5, 5, 5}));
  // Each plane fills one 3x3x3 cube.
  for (int z = 0; z < 8; ++z) {
    std::set<std::vector<int>> corners;
    for (int x = 0; x < 9; ++x)
      for (int y = 0; y < 3; ++y) {
        std::vector<int> at = where(network, 24 * x + 8 * y + z);
        for (int& c : at) c /= 3;
        corners.insert(at);
      }
    EXPECT_EQ(corners.size(), 1u) << "plane " << z;
  }
}

TEST(RubikMap, TreesOfDifferentDepthAndDimension) {
  // A 2D app of 4 rows of 16 onto the two-level 4x4x4 tree of Fig. 4 (8 leaves of 8):
  // leaf sizes must pair up, so the app is cut into 8 halves of rows.
  Tree app({4, 16});
  app.root().tile({1, 8});
  Tree net({4, 4, 4});
  net.root().div({1, 1, 2});
  for (std::size_t i = 0; i < 2; ++i) net.root().child(i).div({2, 2, 1});
  net.map(app);
  // App leaf 1 is ranks 8..15, net leaf 1 is cells x in {0,1}, y in {2,3}, z in {0,1}.
  EXPECT_EQ(net.root().child(0).child(1).elements(),
            (std::vector<std::int64_t>{8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST(RubikMap, IncompatibleTrees) {
  Tree app({9, 3, 8});
  app.root().tile({9, 3, 1});
  Tree small({6, 6, 6});
  small.root().tile({2, 2, 2});
  EXPECT_FALSE(small.compatible(app));
  EXPECT_EQ(error_text([&] { small.map(app); }),
            "map: the trees are not compatible: 27 leaves here, 8 in the source");
  // Same number of leaves, different sizes: 6x6x6 cut along x into 2 (108 each)
  // and then one half into 4 -> leaves 108, 27, 27, 27, 27 vs the app's 5 leaves.
  Tree uneven({6, 6, 6});
  uneven.root().div({2, 1, 1});
  uneven.root().child(1).div({1, 2, 2});
  Tree five({5, 27});
  five.root().div({5, 1});
  EXPECT_EQ(error_text([&] { uneven.map(five); }),
            "map: the trees are not compatible: leaf 0 has 108 cells here, 27 in the source");
}

}  // namespace
