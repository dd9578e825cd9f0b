// The feasibility tests of MIMS packing: can packs of the given sizes fill
// `bins` bins of capacity k? (Seed Chung et al., Algorithms 2-5 and Table I.)
#pragma once

#include <cstdint>
#include <vector>

namespace tofa {
namespace bin_packing {

/// histogram[s] = number of packs of size s, for s in 1..k (index 0 unused,
/// sizes above k are not representable: callers reject them first).
using Histogram = std::vector<std::int64_t>;

/// True for the k whose test below is exact (1, 2, 3, 4, 6).
bool has_exact_test(int k);

/// Can the packs fill `bins` bins of capacity k? Requires the total size
/// sum(s * histogram[s]) == k * bins (callers pad with empty singletons), so
/// a feasible packing fills every bin exactly. Exact for has_exact_test(k):
/// the bins are formed from the full-bin patterns of k in priority order
/// (for k = 6 the seed's Table I, classes A to F), each used as often as the
/// remaining packs allow; feasible when nothing is left. Otherwise best fit
/// decreasing on counts (sound, not complete). O(k^2) at most, O(1) for the
/// exact k. Throws Error on a histogram of the wrong size or volume.
bool fits(const Histogram& histogram, int k, std::int64_t bins);

/// The bins themselves, each a list of pack sizes, by the same rules as
/// fits(). Throws Error when fits() is false.
std::vector<std::vector<int>> fill_bins(const Histogram& histogram, int k, std::int64_t bins);

}  // namespace bin_packing
}  // namespace tofa
