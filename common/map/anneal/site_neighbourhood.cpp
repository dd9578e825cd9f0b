#include "site_neighbourhood.hpp"

#include <algorithm>

namespace tofa {
namespace anneal {

SiteNeighbourhood::SiteNeighbourhood(const Topology& topology, const DistanceTable& sites)
    : adjacent_(sites.site_count()), around_(sites.site_count()) {
  std::vector<int> site_at(topology.node_count(), -1);
  for (int site = 0; site < sites.site_count(); ++site) site_at[sites.node(site)] = site;

  const int dims = topology.dimension_count();
  int offsets = 1;
  for (int d = 0; d < dims; ++d) offsets *= 3;
  for (int site = 0; site < sites.site_count(); ++site) {
    const int node = sites.node(site);
    for (int neighbour : topology.neighbours(node))
      if (site_at[neighbour] >= 0) adjacent_[site].push_back(site_at[neighbour]);

    const std::vector<int> origin = topology.coords(node);
    std::vector<int> coords(dims);
    for (int code = 0; code < offsets; ++code) {
      bool inside = true;
      int rest = code;
      for (int d = 0; d < dims; ++d, rest /= 3) {
        const int length = topology.dims()[d];
        int c = origin[d] + rest % 3 - 1;
        if (topology.wrap()[d]) c = (c + length) % length;
        if (c < 0 || c >= length) inside = false;
        coords[d] = c;
      }
      if (!inside) continue;
      const int other = site_at[topology.node_at(coords)];
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
