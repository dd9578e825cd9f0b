// The feasibility tests of MIMS packing against exhaustive bin packing: the
// pattern tests for k = 1, 2, 3, 4, 6 must agree on every histogram up to a
// few bins; best fit decreasing (other k) must never claim a packing that
// does not exist.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "map/mims/bin_packing.hpp"

namespace {

using tofa::bin_packing::Histogram;

/// Exhaustive: can the items fill `bins` bins of capacity k?
bool brute_force_fits(const Histogram& histogram, int k, int bins) {
  std::vector<int> items;
  for (int size = k; size >= 1; --size) items.insert(items.end(), histogram[size], size);
  std::vector<int> free(bins, k);
  std::function<bool(std::size_t)> place = [&](std::size_t i) {
    if (i == items.size()) return true;
    for (int b = 0; b < bins; ++b) {
      bool seen = false;  // bins with the same free space are interchangeable
      for (int c = 0; c < b; ++c) seen = seen || free[c] == free[b];
      if (seen || free[b] < items[i]) continue;
      free[b] -= items[i];
      if (place(i + 1)) return true;
      free[b] += items[i];
    }
    return false;
  };
  return place(0);
}

/// Every histogram of parts <= k summing to `volume`.
void for_each_histogram(int k, int volume, const std::function<void(const Histogram&)>& visit) {
  Histogram histogram(k + 1, 0);
  std::function<void(int, int)> fill = [&](int size, int left) {
    if (size == 0) {
      if (left == 0) visit(histogram);
      return;
    }
    for (int count = 0; count * size <= left; ++count) {
      histogram[size] = count;
      fill(size - 1, left - count * size);
    }
    histogram[size] = 0;
  };
  fill(k, volume);
}

std::string text(const Histogram& histogram) {
  std::string out;
  for (std::size_t s = 1; s < histogram.size(); ++s) out += " n" + std::to_string(s) + "=" + std::to_string(histogram[s]);
  return out;
}

void expect_valid_bins(const Histogram& histogram, int k, int bins) {
  const auto contents = tofa::bin_packing::fill_bins(histogram, k, bins);
  ASSERT_EQ(contents.size(), static_cast<std::size_t>(bins)) << text(histogram);
  Histogram used(k + 1, 0);
  for (const auto& bin : contents) {
    EXPECT_EQ(std::accumulate(bin.begin(), bin.end(), 0), k) << text(histogram);
    for (int size : bin) ++used[size];
  }
  EXPECT_EQ(used, histogram);
}

TEST(MimsBinPacking, PatternTestsAreExactOnEveryHistogram) {
  // (k, largest number of bins): all histograms of k * bins tasks.
  const std::vector<std::pair<int, int>> cases = {{1, 6}, {2, 7}, {3, 6}, {4, 5}, {6, 4}};
  for (const auto& [k_case, max_bins] : cases) {
    const int k = k_case;  // clang before 16 cannot capture a structured binding
    ASSERT_TRUE(tofa::bin_packing::has_exact_test(k));
    int checked = 0, feasible = 0;
    for (int bins = 1; bins <= max_bins; ++bins) {
      for_each_histogram(k, k * bins, [&](const Histogram& histogram) {
        const bool expected = brute_force_fits(histogram, k, bins);
        ASSERT_EQ(tofa::bin_packing::fits(histogram, k, bins), expected)
            << "k=" << k << " bins=" << bins << text(histogram);
        if (expected) {
          expect_valid_bins(histogram, k, bins);
          ++feasible;
        }
        ++checked;
      });
    }
    // Both outcomes occur (k = 1 and 2 are always feasible), so the comparison means something.
    if (k > 2) {
      EXPECT_LT(feasible, checked) << "k=" << k;
    }
    EXPECT_GT(feasible, 0) << "k=" << k;
  }
}

TEST(MimsBinPacking, HandExamplesForFourAndSix) {
  // k = 4, 2 bins: {3,3,2} needs n4 + n3 + ceil(n2/2) = 0 + 2 + 1 = 3 bins.
  EXPECT_FALSE(tofa::bin_packing::fits({0, 0, 1, 2, 0}, 4, 2));
  // {3,2,2,1}: 1 + 1 = 2 bins: {3,1} and {2,2}.
  EXPECT_TRUE(tofa::bin_packing::fits({0, 1, 2, 1, 0}, 4, 2));
  // k = 6, 2 bins: {4,4,2,1,1} -> {4,2} (class A) and {4,1,1} (class B).
  EXPECT_TRUE(tofa::bin_packing::fits({0, 2, 1, 0, 2, 0, 0}, 6, 2));
  // {4,4,3,1}: a 4 needs a 2 or two 1s; there is one 1 -> infeasible.
  EXPECT_FALSE(tofa::bin_packing::fits({0, 1, 0, 1, 2, 0, 0}, 6, 2));
  // {5,5,2}: each 5 needs a 1 -> infeasible although every pack fits a bin.
  EXPECT_FALSE(tofa::bin_packing::fits({0, 0, 1, 0, 0, 2, 0}, 6, 2));
  // {3,3,3,2,1}: {3,3} (class A) and {3,2,1} (class B).
  EXPECT_TRUE(tofa::bin_packing::fits({0, 1, 1, 3, 0, 0, 0}, 6, 2));
  const auto bins = tofa::bin_packing::fill_bins({0, 1, 1, 3, 0, 0, 0}, 6, 2);
  EXPECT_EQ(bins, (std::vector<std::vector<int>>{{3, 3}, {3, 2, 1}}));
}

TEST(MimsBinPacking, BestFitDecreasingIsSoundForOtherK) {
  for (int k : {5, 7, 8}) {
    ASSERT_FALSE(tofa::bin_packing::has_exact_test(k));
    int accepted = 0;
    for (int bins = 1; bins <= 3; ++bins) {
      for_each_histogram(k, k * bins, [&](const Histogram& histogram) {
        if (!tofa::bin_packing::fits(histogram, k, bins)) return;
        ++accepted;
        ASSERT_TRUE(brute_force_fits(histogram, k, bins)) << "k=" << k << text(histogram);
        expect_valid_bins(histogram, k, bins);
      });
    }
    EXPECT_GT(accepted, 0);
  }
}

TEST(MimsBinPacking, RejectsAHistogramThatDoesNotFillTheBins) {
  try {
    tofa::bin_packing::fits({0, 3, 0, 0, 0}, 4, 1);
    FAIL() << "no exception";
  } catch (const tofa::Error& error) {
    EXPECT_STREQ(error.what(), "packs hold 3 tasks, but 1 bin(s) of 4 hold exactly 4");
  }
}

}  // namespace
