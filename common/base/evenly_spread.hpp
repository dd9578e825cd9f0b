// Starting points for searches that should cover a list: `count` of its
// kept entries, evenly spaced in list order (the middle of each stretch).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tofa {

/// Up to `count` of the entries of `list` for which keep(entry) holds,
/// `kept` of them in all, one from the middle of each of `count` equal
/// stretches of the kept entries.
template <typename Keep>
std::vector<int> evenly_spread(const std::vector<int>& list, const Keep& keep, std::size_t kept,
                               std::size_t count) {
  count = std::min(count, kept);
  std::vector<int> picks;
  if (count == 0) return picks;
  picks.reserve(count);
  const std::size_t step = kept / count;
  std::size_t rank = 0;
  for (int entry : list) {
    if (!keep(entry)) continue;
    if (rank >= step / 2 && (rank - step / 2) % step == 0) {
      picks.push_back(entry);
      if (picks.size() == count) break;
    }
    ++rank;
  }
  return picks;
}

}  // namespace tofa
