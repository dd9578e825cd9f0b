// evenly_spread: search starting points spread over a list's kept entries.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "base/evenly_spread.hpp"

namespace {

TEST(EvenlySpread, TakesTheMiddleOfEachStretchOfKeptEntries) {
  std::vector<int> list(20);
  std::iota(list.begin(), list.end(), 0);
  const auto even = [](int entry) { return entry % 2 == 0; };  // 10 kept
  EXPECT_EQ(tofa::evenly_spread(list, even, 10, 5), (std::vector<int>{2, 6, 10, 14, 18}));
  EXPECT_EQ(tofa::evenly_spread(list, even, 10, 1), (std::vector<int>{10}));
  EXPECT_EQ(tofa::evenly_spread(list, even, 10, 3), (std::vector<int>{2, 8, 14}));
}

TEST(EvenlySpread, NeverMoreThanTheKeptEntries) {
  const std::vector<int> list = {7, 3, 9};
  const auto all = [](int) { return true; };
  EXPECT_EQ(tofa::evenly_spread(list, all, 3, 16), (std::vector<int>{7, 3, 9}));
  EXPECT_TRUE(tofa::evenly_spread(list, [](int) { return false; }, 0, 16).empty());
}

}  // namespace
