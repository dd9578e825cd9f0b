// Which sites are next to a site: its torus neighbours (for the heuristic
// start) and the 3^n - 1 sites of the box around it (for local proposals).
#pragma once

#include <vector>

#include "distance_table.hpp"
#include "topology/topology.hpp"

namespace tofa {
namespace anneal {

class SiteNeighbourhood {
 public:
  SiteNeighbourhood(const Topology& topology, const DistanceTable& sites);

  /// Sites one link away, in Topology::neighbours order.
  const std::vector<int>& adjacent(int site) const { return adjacent_[site]; }
  /// Sites whose coordinates differ by at most 1 in every dimension.
  const std::vector<int>& around(int site) const { return around_[site]; }

 private:
  std::vector<std::vector<int>> adjacent_;
  std::vector<std::vector<int>> around_;
};

}  // namespace anneal
}  // namespace tofa
