// Feasibility of MIMS packing as restricted bin packing (seed Chung et al.).
//
// Why the pattern order is exact for k = 2, 3, 4, 6: the packs fill the bins
// exactly, so every bin is one of k's full patterns. Packs of size > k/2 can
// only share a bin with smaller packs, and taking 2s before 1s for them never
// hurts (two 1s can stand in for a 2 anywhere, not the other way round);
// pairing 3s with 3s first (k = 6) only frees small packs; what is left of
// 2s and 1s always fills the remaining bins because the volume is exact.
// For k = 4 this is the seed's Algorithm 4 (n4 + n3 + ceil(n2/2) <= n/k),
// for k = 6 its Algorithm 5 over Table I. The unit tests compare every
// histogram up to a few bins with exhaustive bin packing.
#include "bin_packing.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "base/error.hpp"

namespace tofa {
namespace bin_packing {
namespace {

using Pattern = std::vector<int>;  // pack sizes of one full bin, descending

const std::vector<Pattern>* patterns_for(int k) {
  static const std::vector<Pattern> k1 = {{1}};
  static const std::vector<Pattern> k2 = {{2}, {1, 1}};  // Algorithm 2
  static const std::vector<Pattern> k3 = {{3}, {2, 1}, {1, 1, 1}};
  static const std::vector<Pattern> k4 = {{4}, {3, 1}, {2, 2}, {2, 1, 1}, {1, 1, 1, 1}};
  // Table I, classes A to F. The seed prints class C's first packing as
  // {3, 1, 1}, which does not fill a bin of 6: it is {3, 1, 1, 1}.
  static const std::vector<Pattern> k6 = {{6}, {5, 1}, {4, 2}, {3, 3},  // A
                                          {4, 1, 1}, {3, 2, 1},         // B
                                          {3, 1, 1, 1}, {2, 2, 2},      // C
                                          {2, 2, 1, 1},                 // D
                                          {2, 1, 1, 1, 1},              // E
                                          {1, 1, 1, 1, 1, 1}};          // F
  switch (k) {
    case 1: return &k1;
    case 2: return &k2;
    case 3: return &k3;
    case 4: return &k4;
    case 6: return &k6;
    default: return nullptr;
  }
}

void check_histogram(const Histogram& histogram, int k, std::int64_t bins) {
  if (k < 1) throw Error("pack size must be at least 1, got " + std::to_string(k));
  if (histogram.size() != static_cast<std::size_t>(k) + 1) {
    throw Error("pack histogram has " + std::to_string(histogram.size()) +
                " entries, expected " + std::to_string(k + 1));
  }
  std::int64_t volume = 0;
  for (int size = 1; size <= k; ++size) {
    if (histogram[size] < 0) throw Error("pack histogram has a negative count");
    volume += size * histogram[size];
  }
  if (volume != k * bins) {
    throw Error("packs hold " + std::to_string(volume) + " tasks, but " + std::to_string(bins) +
                " bin(s) of " + std::to_string(k) + " hold exactly " + std::to_string(k * bins));
  }
}

/// Uses each pattern as often as the remaining packs allow, in order;
/// emit(pattern, times) sees every pattern used. True when nothing is left.
template <typename Emit>
bool apply_patterns(Histogram left, const std::vector<Pattern>& patterns, std::int64_t bins,
                    Emit emit) {
  std::int64_t used = 0;
  for (const Pattern& pattern : patterns) {
    std::int64_t times = std::numeric_limits<std::int64_t>::max();
    for (std::size_t i = 0; i < pattern.size();) {
      std::size_t j = i;
      while (j < pattern.size() && pattern[j] == pattern[i]) ++j;
      times = std::min<std::int64_t>(times, left[pattern[i]] / static_cast<std::int64_t>(j - i));
      i = j;
    }
    if (times == 0) continue;
    for (int size : pattern) left[size] -= times;
    used += times;
    emit(pattern, times);
  }
  for (std::int64_t count : left)
    if (count != 0) return false;
  return used <= bins;
}

/// Best fit decreasing on counts: free_count[f] = bins with f free slots.
/// The tightest bin that takes an item stays the tightest until it is too
/// full for this size, so a bin with f free takes f / size items in a row.
bool best_fit_counts(const Histogram& histogram, int k, std::int64_t bins) {
  std::vector<std::int64_t> free_count(k + 1, 0);
  free_count[k] = bins;
  for (int size = k; size >= 1; --size) {
    std::int64_t left = histogram[size];
    while (left > 0) {
      int best = size;
      while (best <= k && free_count[best] == 0) ++best;
      if (best > k) return false;
      const std::int64_t per_bin = best / size;
      const std::int64_t filled = std::min(free_count[best], left / per_bin);
      free_count[best] -= filled;
      free_count[best - per_bin * size] += filled;
      left -= filled * per_bin;
      if (left > 0 && left < per_bin && free_count[best] > 0) {  // a last, partly filled bin
        --free_count[best];
        ++free_count[best - left * size];
        left = 0;
      }
    }
  }
  return true;
}

/// The same decisions as best_fit_counts, bin by bin.
std::vector<std::vector<int>> best_fit_bins(const Histogram& histogram, int k,
                                            std::int64_t bins) {
  std::vector<std::vector<int>> contents(bins);
  std::vector<std::vector<std::int64_t>> by_free(k + 1);  // bin ids, taken from the back
  for (std::int64_t bin = bins - 1; bin >= 0; --bin) by_free[k].push_back(bin);
  for (int size = k; size >= 1; --size) {
    for (std::int64_t item = 0; item < histogram[size]; ++item) {
      int best = size;
      while (best <= k && by_free[best].empty()) ++best;
      if (best > k) throw Error("packs do not fit into " + std::to_string(bins) + " bins");
      const std::int64_t bin = by_free[best].back();
      by_free[best].pop_back();
      contents[bin].push_back(size);
      by_free[best - size].push_back(bin);
    }
  }
  return contents;
}

}  // namespace

bool has_exact_test(int k) { return patterns_for(k) != nullptr; }

bool fits(const Histogram& histogram, int k, std::int64_t bins) {
  check_histogram(histogram, k, bins);
  if (const std::vector<Pattern>* patterns = patterns_for(k))
    return apply_patterns(histogram, *patterns, bins, [](const Pattern&, std::int64_t) {});
  return best_fit_counts(histogram, k, bins);
}

std::vector<std::vector<int>> fill_bins(const Histogram& histogram, int k, std::int64_t bins) {
  check_histogram(histogram, k, bins);
  const std::vector<Pattern>* patterns = patterns_for(k);
  if (patterns == nullptr) return best_fit_bins(histogram, k, bins);
  std::vector<std::vector<int>> contents;
  const bool complete = apply_patterns(histogram, *patterns, bins,
                                       [&](const Pattern& pattern, std::int64_t times) {
                                         contents.insert(contents.end(), times, pattern);
                                       });
  if (!complete) throw Error("packs do not fit into " + std::to_string(bins) + " bins");
  return contents;
}

}  // namespace bin_packing
}  // namespace tofa
