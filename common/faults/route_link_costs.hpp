// The sum of per-link costs (FaultCost::link_extra: the running jobs'
// load) along dimension-order routes, per segment, not per hop.
#pragma once

#include <memory>
#include <vector>

#include "topology/topology.hpp"

namespace tofa {

/// R(a,b) is one segment per dimension, each along one line in one
/// direction (route_faults.hpp), so its links' costs are a difference of
/// two prefix sums per segment. A line's prefix sums (both directions, the
/// line twice round for the wrap) are computed on its first use. Not
/// thread-safe; `topology` and `costs` (one entry per Topology::link_id)
/// must outlive it.
class RouteLinkCosts {
 public:
  RouteLinkCosts(const Topology& topology, const std::vector<double>& costs);

  /// The sum of costs[link_id] over the links of R(from, to).
  double sum(int from, int to);

  /// This thread's tables for `costs` on `topology`, kept (and `costs`
  /// with them) until it asks for other costs or another shape.
  static RouteLinkCosts& for_thread(const Topology& topology,
                                    const std::shared_ptr<const std::vector<double>>& costs);

 private:
  /// The prefix sums of the line along d whose coordinate-0 node is `base`,
  /// `line` its index among d's lines: [0, 2L] going up, then [0, 2L]
  /// going down (k steps down from coordinate 0 end at coordinate -k).
  const double* row(int d, int line, int base);

  const Topology* topology_;
  const std::vector<double>& costs_;
  std::vector<int> dims_;
  std::vector<int> stride_;
  std::vector<std::vector<int>> slot_;  // [d][line]: offset of its row in rows_, -1 until used
  std::vector<double> rows_;
};

}  // namespace tofa
