// Placement that sees the other jobs' traffic: a job's time on a shared
// torus follows its busiest link, and on a link it shares, a flow of `own`
// bytes beside the others' `others` bytes takes (own + min(own, others)) /
// bandwidth under fair sharing: the others' bytes delay it by at most its
// own, however many they are.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "map/mapper.hpp"

namespace tofa {

/// The fair-share time of the links, in bytes, for one request.
class SharedLinkTimes {
 public:
  /// Empty unless the request carries the other jobs' loads in bytes
  /// (FaultCost::link_extra and link_extra_bytes, as add_interference sets).
  explicit SharedLinkTimes(const MappingRequest& request);
  /// Whether the request carries them.
  static bool applies(const MappingRequest& request);
  bool empty() const { return !others_; }
  /// own + min(own, the others' bytes), times 1 + penalty for a link next
  /// to a node that may fail.
  double time(int link, double own) const;
  /// The largest time over the links the placement's routes use; 0 when empty.
  double busiest(const MappingRequest& request, const Placement& placement) const;
  /// The placement's bytes per link (sparse, link id order), each link with
  /// its reverse's too when the links are shared both ways.
  std::vector<std::pair<int, double>> own_loads(const MappingRequest& request,
                                                const Placement& placement) const;
  /// Whether a link carries its reverse's bytes too (FaultCost::shared_links).
  bool both_ways() const { return both_ways_; }

 private:
  std::shared_ptr<const std::vector<double>> others_;  // link_extra
  double bytes_per_unit_ = 0;                          // link_extra_bytes
  std::vector<double> factor_;                         // empty: all 1
  bool both_ways_ = false;
};

/// Local descent from `start`: each task moved to a free slot of a
/// candidate, or swapped with a task there, when that lowers the sum over
/// links of the squared fair-share times; the best move per task, passes
/// until none improves or `seconds` (0: no limit) are spent. Returns
/// `start` when the request does not see other jobs.
Placement congestion_descent(const MappingRequest& request, const Placement& start,
                             double seconds);

}  // namespace tofa
