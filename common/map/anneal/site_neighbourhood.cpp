#include "site_neighbourhood.hpp"

#include <algorithm>

#include "base/zeroed_scratch.hpp"

namespace tofa {
namespace anneal {

SiteNeighbourhood::SiteNeighbourhood(const Topology& topology, const DistanceTable& sites)
    : adjacent_(sites.site_count()), around_(sites.site_count()) {
  // site + 1 per node, from the thread's scratch: a fresh node-sized table
  // was 64 pages of a 64-task job's budget at 65,536 nodes (base/zeroed_scratch.hpp).
  struct SiteAt;
  std::vector<int>& site_at = zeroed_scratch<int, SiteAt>(topology.node_count());
  const ZeroedOnExit<int, std::vector<int>> clear(site_at, sites.nodes());
  for (int site = 0; site < sites.site_count(); ++site) site_at[sites.node(site)] = site + 1;

  const int dims = topology.dimension_count();
  int offsets = 1;
  for (int d = 0; d < dims; ++d) offsets *= 3;
  std::vector<int> stride(dims, 1);
  for (int d = 1; d < dims; ++d) stride[d] = stride[d - 1] * topology.dims()[d - 1];
  std::vector<int> origin(dims);
  for (int site = 0; site < sites.site_count(); ++site) {
    const int node = sites.node(site);
    for (int neighbour : topology.neighbours(node))
      if (site_at[neighbour] > 0) adjacent_[site].push_back(site_at[neighbour] - 1);

    for (int d = 0; d < dims; ++d) origin[d] = (node / stride[d]) % topology.dims()[d];
    around_[site].reserve(std::min(offsets, sites.site_count()));
    for (int code = 0; code < offsets; ++code) {
      int other = 0;
      int rest = code;
      for (int d = 0; d < dims && other >= 0; ++d, rest /= 3) {
        const int length = topology.dims()[d];
        int c = origin[d] + rest % 3 - 1;
        if (topology.wrap()[d]) c = (c + length) % length;
        other = c < 0 || c >= length ? -1 : other + c * stride[d];
      }
      if (other < 0) continue;
      other = site_at[other] - 1;
      if (other >= 0 && other != site) around_[site].push_back(other);
    }
    // Rings of length 1 or 2 reach the same node through several offsets.
    auto& list = around_[site];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
}

}  // namespace anneal
}  // namespace tofa
