// Fast d(a, b) between the nodes an annealing run may use: the inner loop of
// every Metropolis step evaluates it a dozen times.
#pragma once

#include <cstdint>
#include <vector>

#include "../../tofa/energy.hpp"
#include "../../tofa/topology.hpp"

namespace tofa {
namespace anneal {

/// Distances between "sites" (indices into a list of topology nodes) under
/// one metric, from per-dimension tables: no coordinate vectors are built
/// per call. O(sites * dimensions) memory.
class DistanceTable {
 public:
  /// `wrap_all` measures every dimension as a ring (the full torus that
  /// free_energy_lower_bound uses) whatever the topology's own wrap flags.
  DistanceTable(const Topology& topology, const std::vector<int>& nodes, DistanceMetric metric,
                bool wrap_all = false);

  int site_count() const { return static_cast<int>(nodes_.size()); }
  int node(int site) const { return nodes_[site]; }
  const std::vector<int>& nodes() const { return nodes_; }
  DistanceMetric metric() const { return metric_; }

  double distance(int a, int b) const {
    const std::int16_t* ca = &coords_[static_cast<std::size_t>(a) * dims_];
    const std::int16_t* cb = &coords_[static_cast<std::size_t>(b) * dims_];
    int hops = 0;
    int squares = 0;
    int used = 0;
    for (int d = 0; d < dims_; ++d) {
      const int step = axis_[d][ca[d] - cb[d] + offset_[d]];
      hops += step;
      squares += step * step;
      used += step != 0;
    }
    switch (metric_) {
      case DistanceMetric::Hops:
        return hops;
      case DistanceMetric::ScaledHops:
        return used == 0 ? 0.0 : static_cast<double>(dims_) * hops / used;
      case DistanceMetric::Euclidean:
        return root_[squares];
    }
    return hops;
  }

 private:
  std::vector<int> nodes_;
  DistanceMetric metric_;
  int dims_;
  std::vector<std::int16_t> coords_;    // site-major
  std::vector<std::vector<int>> axis_;  // per dimension: steps for difference - offset
  std::vector<int> offset_;             // L - 1 per dimension
  std::vector<double> root_;            // sqrt of every possible sum of squares
};

}  // namespace anneal
}  // namespace tofa
