// Placement that sees the other jobs' traffic: a job's time on a shared
// torus follows its busiest link, and on a link it shares, a flow of `own`
// bytes beside the others' `others` bytes takes (own + min(own, others)) /
// bandwidth under fair sharing: the others' bytes delay it by at most its
// own, however many they are.
//
// On links whose two directions share one bandwidth (LinkSharing=shared:
// Ethernet and TCP, SimGrid's defaults) the sharing is TCP's: a flow's share
// of a link falls with its round-trip time, so with its route's hops, and its
// acknowledgements load the reverse route. There a flow of b bytes over p
// hops counts b / p on its route's links (kAckShare of that on the reverse
// route's), and takes p times the time of the busiest link it uses, forward
// or back: measured in tofa-sim, a ring allreduce with one flow per link and
// every acknowledgement on a quiet link ran in 0.12 s, with 4-hop flows whose
// acknowledgements crossed its 1-hop flows in 0.28 s.
//
// On split-duplex links (each direction its own lane, RDMA: the default)
// a running job is slowed where the new job's bytes join its own on a
// link: auto ranks placements first by their bytes on links the other jobs
// use, and the descent adds none there, so no running job is slowed for the
// new job's sake where a placement avoids it (moving bytes off those links
// at any cost to the job's own time, the descent made jobs slower, some the
// batch's slowest). On links shared both ways with TCP that did not help
// in tofa-sim (bench/interference.py): a new flow's share of a running
// flow's link depends on both flows' hops and on the reverse route, and
// avoiding the running jobs' links (either way) left the new jobs slower
// while the batch completion still rose. There a running collective waits
// for its slowest flow, so auto keeps off the links of the running flows
// estimated slowest (FaultCost::link_criticality: extra hops in Equation 1
// and the first rank), where its bytes would lengthen the batch.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "map/mapper.hpp"
#include "metrics/tcp_flows.hpp"
#include "topology/topology.hpp"

namespace tofa {

/// A link's share of a job's traffic: its bytes (on TCP links, bytes / hops
/// of each flow), the sum of the squared hops of the flows and
/// acknowledgements on it and their longest route's hops (1 and 1 off TCP
/// links).
struct LinkUse {
  int link = 0;
  double usage = 0;
  double flows = 0;
  int longest = 0;
};

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
  /// What auto ranks a placement by, from one walk of its routes.
  struct Footprint {
    /// The placement's bytes on the links protects() names, each times its
    /// protection() (the bytes that slow the other jobs down); 0 when it
    /// names none.
    double bytes_on_others_links = 0;
    /// The largest time over its flows (on TCP links, a flow's hops times
    /// its busiest link's).
    double busiest = 0;
  };
  /// All 0 when empty.
  Footprint footprint(const MappingRequest& request, const Placement& placement) const;
  /// Whether auto and the descent keep the new job's bytes off some links:
  /// on split-duplex links those the other jobs use, on links shared both
  /// ways those of the jobs estimated slowest (FaultCost::link_criticality).
  bool protects_others() const { return others_ && (!both_ways_ || critical_); }
  /// How much a byte on `link` counts there: 1 or 0 on split-duplex links,
  /// the link's criticality on shared ones.
  double protection(int link) const {
    return both_ways_ ? (*critical_)[link] : (*others_)[link] > 0 ? 1.0 : 0.0;
  }
  bool protects(int link) const { return protection(link) > 0; }
  /// The placement's use of each link (sparse, link id order), each link
  /// with its reverse's too when the links are shared both ways.
  std::vector<LinkUse> own_loads(const MappingRequest& request, const Placement& placement) const;
  /// Calls add(link id, usage, hops) for every link the flow of `bytes` from
  /// node `from` to `to` uses, as own_loads counts it (hops 0 off TCP links).
  template <typename Add>
  void visit_flow(const Topology& topology, int from, int to, double bytes,
                  std::vector<int>& route, Add add) const;
  /// Whether a link carries its reverse's bytes too, TCP's way (FaultCost::shared_links).
  bool both_ways() const { return both_ways_; }

 private:
  std::shared_ptr<const std::vector<double>> others_;  // link_extra
  double bytes_per_unit_ = 0;                          // link_extra_bytes
  std::vector<int> penalised_;  // links next to a node that may fail, sorted: no link-sized table
  double penalty_factor_ = 1;
  bool both_ways_ = false;
  std::shared_ptr<const std::vector<double>> critical_;  // FaultCost::link_criticality
};

template <typename Add>
void SharedLinkTimes::visit_flow(const Topology& topology, int from, int to, double bytes,
                                 std::vector<int>& route, Add add) const {
  if (both_ways_) return visit_tcp_flow(topology, from, to, bytes, route, add);
  topology.route_link_ids(from, to, route);
  for (int link : route) add(link, bytes, 0);
}

/// Local descent from `start`: each task moved to a free slot of a
/// candidate, or swapped with a task there, when that lowers the sum over
/// links of the squared fair-share times and, on split-duplex links, adds
/// no bytes on a link the others use; the best move per task, passes
/// until none improves or `seconds` (0: no limit) are spent. Returns
/// `start` when the request does not see other jobs.
Placement congestion_descent(const MappingRequest& request, const Placement& start,
                             double seconds);

}  // namespace tofa
