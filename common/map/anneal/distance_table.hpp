// Fast d(a, b) between the nodes an annealing run may use: the inner loop of
// every Metropolis step evaluates it a dozen times.
#pragma once

#include <cstdint>
#include <vector>

#include "map/anneal/distance_metric.hpp"
#include "topology/topology.hpp"

namespace tofa {
namespace anneal {

/// Distances between "sites" (indices into a list of topology nodes) under
/// one metric, from per-dimension tables: no coordinate vectors are built
/// per call. O(sites * dimensions) memory, sites^2 floats with failing nodes.
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

  /// Equation 1 along the routes: d(a, b) grows by penalty times the links
  /// of R(a,b) and of R(b,a) with a faulty endpoint (p > 0), halved, so
  /// that a pair whose route passes a faulty node costs what the seed says
  /// (hops count as c = 1). Dense: site_count()^2 floats.
  void add_fault_penalty(const Topology& topology, const std::vector<double>& outage,
                         double penalty);

  /// Interference along the routes: d(a, b) grows by the mean of the
  /// link_extra costs summed over R(a,b) and over R(b,a). Dense, as above.
  void add_link_costs(const Topology& topology, const std::vector<double>& link_extra);

  double distance(int a, int b) const {
    return with_penalty_.empty()
               ? metric_distance(a, b)
               : with_penalty_[static_cast<std::size_t>(a) * nodes_.size() + b];
  }

 private:
  /// d(a, b) under the metric alone.
  double metric_distance(int a, int b) const {
    const std::int16_t* ca = &coords_[static_cast<std::size_t>(a) * dims_];
    const std::int16_t* cb = &coords_[static_cast<std::size_t>(b) * dims_];
    // Hops, the annealer's default, on its own; unrolled for 3D, the common case.
    if (metric_ == DistanceMetric::Hops && dims_ == 3)
      return steps_[zero_[0] + ca[0] - cb[0]] + steps_[zero_[1] + ca[1] - cb[1]] +
             steps_[zero_[2] + ca[2] - cb[2]];
    int hops = 0;
    if (metric_ == DistanceMetric::Hops) {
      for (int d = 0; d < dims_; ++d) hops += steps_[zero_[d] + ca[d] - cb[d]];
      return hops;
    }
    int squares = 0;
    int used = 0;
    for (int d = 0; d < dims_; ++d) {
      const int step = steps_[zero_[d] + ca[d] - cb[d]];
      hops += step;
      squares += step * step;
      used += step != 0;
    }
    if (metric_ == DistanceMetric::ScaledHops)
      return used == 0 ? 0.0 : static_cast<double>(dims_) * hops / used;
    return root_[squares];
  }

  std::vector<int> nodes_;
  DistanceMetric metric_;
  int dims_;
  std::vector<std::int16_t> coords_;  // site-major
  std::vector<int> steps_;            // steps of every coordinate difference, dimension after dimension
  std::vector<int> zero_;             // per dimension: where its difference 0 sits in steps_
  std::vector<double> root_;          // sqrt of every possible sum of squares
  // Site-major d(a, b) with Equation 1's penalty (one read in the annealer's
  // inner loop); empty without faulty nodes.
  std::vector<float> with_penalty_;
};

}  // namespace anneal
}  // namespace tofa
