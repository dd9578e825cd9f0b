// tofa-sim-md's processor grid (apps/md_grid.h), which the application and
// tofa-sim's graph of it share.
#include <gtest/gtest.h>

#include <array>

#include "sim/apps/md_grid.h"

namespace {

std::array<int, 3> grid_of(int ranks) {
  int grid[3];
  md_grid(ranks, grid);
  return {grid[0], grid[1], grid[2]};
}

TEST(MdGrid, TheSeedsRankCountsGetTheLeastSurface) {
  // Surfaces 1/PQ + 1/QR + 1/PR: 2x4x4 = 0.3125 beats 2x2x8 = 0.5; the
  // permutations tie and the smallest P, then Q, wins.
  EXPECT_EQ(grid_of(32), (std::array<int, 3>{2, 4, 4}));
  EXPECT_EQ(grid_of(64), (std::array<int, 3>{4, 4, 4}));
  EXPECT_EQ(grid_of(128), (std::array<int, 3>{4, 4, 8}));
  EXPECT_EQ(grid_of(256), (std::array<int, 3>{4, 8, 8}));
}

TEST(MdGrid, SmallAndPrimeCounts) {
  EXPECT_EQ(grid_of(1), (std::array<int, 3>{1, 1, 1}));
  EXPECT_EQ(grid_of(2), (std::array<int, 3>{1, 1, 2}));
  EXPECT_EQ(grid_of(8), (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(grid_of(12), (std::array<int, 3>{2, 2, 3}));
  EXPECT_EQ(grid_of(17), (std::array<int, 3>{1, 1, 17}));
}

}  // namespace
