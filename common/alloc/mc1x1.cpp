// MC1x1 allocation (seed Bunde, section 5.1; Bender et al.).
#include <algorithm>
#include <cstdint>

#include "alloc/allocators.hpp"
#include "base/error.hpp"
#include "free_nodes.hpp"

namespace tofa {

std::vector<int> allocate_mc1x1(const Topology& topology, const std::vector<bool>& busy,
                                int count) {
  const std::vector<int> free = alloc::free_nodes(topology, busy, count, "mc1x1");
  const int axes = topology.dimension_count();
  if (topology.node_count() >= (1 << 21)) throw Error("mc1x1: more than 2^21 nodes");
  std::vector<int> coords;  // axes entries per free node
  for (int node : free) {
    const std::vector<int> c = topology.coords(node);
    coords.insert(coords.end(), c.begin(), c.end());
  }
  // Key of a node seen from a center: shell (L-infinity), then L1, then id.
  auto key = [&](std::size_t center, std::size_t k) {
    std::uint64_t shell = 0, l1 = 0;
    for (int a = 0; a < axes; ++a) {
      int d = coords[center * axes + a] - coords[k * axes + a];
      if (d < 0) d = -d;
      const int size = topology.dims()[a];
      if (topology.wrap()[a] && 2 * d > size) d = size - d;
      shell = std::max<std::uint64_t>(shell, d);
      l1 += d;
    }
    return shell << 42 | l1 << 21 | static_cast<std::uint64_t>(free[k]);
  };
  std::vector<std::uint64_t> keys(free.size());
  std::size_t best_center = 0;
  std::uint64_t best_shells = UINT64_MAX, best_l1 = UINT64_MAX;
  for (std::size_t center = 0; center < free.size(); ++center) {
    for (std::size_t k = 0; k < free.size(); ++k) keys[k] = key(center, k);
    std::nth_element(keys.begin(), keys.begin() + (count - 1), keys.end());
    std::uint64_t shells = 0, l1 = 0;
    for (int k = 0; k < count; ++k) {
      shells += keys[k] >> 42;
      l1 += (keys[k] >> 21) & ((1u << 21) - 1);
    }
    if (shells < best_shells || (shells == best_shells && l1 < best_l1)) {
      best_center = center;
      best_shells = shells;
      best_l1 = l1;
    }
  }
  for (std::size_t k = 0; k < free.size(); ++k) keys[k] = key(best_center, k);
  std::partial_sort(keys.begin(), keys.begin() + count, keys.end());
  std::vector<int> allocation(count);
  for (int k = 0; k < count; ++k) allocation[k] = static_cast<int>(keys[k] & ((1u << 21) - 1));
  return allocation;
}

}  // namespace tofa
