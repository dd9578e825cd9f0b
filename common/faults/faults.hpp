// Node outage probabilities learned from heartbeats, and their cost (seed TOFA, Eq. 1).
#pragma once

#include <cstdint>
#include <deque>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace tofa {

class RouteFaults;  // faults/route_faults.hpp

struct OutageModel {
  enum class Kind { MovingWindow, Ewma };
  Kind kind = Kind::MovingWindow;
  int window = 100;    ///< heartbeats kept and averaged by MovingWindow (>= 1)
  double alpha = 0.1;  ///< EWMA weight of the newest heartbeat, in (0, 1]

  /// "window:100" or "ewma:0.1". Throws Error.
  static OutageModel parse(const std::string& text);
  std::string to_string() const;
  bool operator==(const OutageModel& other) const {
    return kind == other.kind && window == other.window && alpha == other.alpha;
  }
  bool operator!=(const OutageModel& other) const { return !(*this == other); }
};

/// Heartbeat outcomes of one node.
class HeartbeatHistory {
 public:
  /// Records one heartbeat: answered or missed. Keeps at most `model.window`
  /// outcomes and updates the EWMA (which starts at 0).
  void record(bool answered, const OutageModel& model);
  /// MovingWindow: missed / recorded over the window (0 with no heartbeat).
  /// Ewma: e <- alpha * missed + (1 - alpha) * e per heartbeat.
  double outage_probability(const OutageModel& model) const;

  const std::deque<bool>& recent() const { return recent_; }  ///< true = answered
  std::uint64_t answered_total() const { return answered_total_; }
  std::uint64_t missed_total() const { return missed_total_; }
  double ewma() const { return ewma_; }

  /// One-line text form for the state file; from_text throws Error.
  std::string to_text() const;
  static HeartbeatHistory from_text(const std::string& text);

 private:
  std::deque<bool> recent_;
  std::size_t recent_missed_ = 0;  ///< misses in recent_: the estimate in O(1)
  std::uint64_t answered_total_ = 0;
  std::uint64_t missed_total_ = 0;
  double ewma_ = 0;
};

/// Reads "NODE PROBABILITY" lines (node name or numeric id; '#' comments).
/// Nodes not listed get 0. Throws ParseError (unknown node, p outside [0,1]).
std::vector<double> read_fault_file(const std::string& path, const Topology& topology);
std::vector<double> parse_faults(std::istream& in, const std::string& source_name,
                                 const Topology& topology);

/// Cost parameters of Equation 1.
struct FaultCost {
  double link_cost = 1.0;  ///< c
  double penalty = 100.0;  ///< a link with a faulty endpoint costs c + penalty * c
  /// Extra cost of each directed link (index Topology::link_id), in units of
  /// c: the other jobs' traffic on it (interference_link_costs). Null: none.
  std::shared_ptr<const std::vector<double>> link_extra;
  /// The other jobs' bytes a unit of link_extra stands for (0: unknown);
  /// auto then ranks placements by their busiest link.
  double link_extra_bytes = 0;
  /// A link's two directions share its bandwidth (LinkSharing=shared): the
  /// other jobs' load on a link and a job's own count both ways.
  bool shared_links = false;
  /// With shared_links: how much a new job's bytes on each link would
  /// lengthen the running job that ends last (link_criticality, 0 to 1);
  /// auto keeps them off. Null: none.
  std::shared_ptr<const std::vector<double>> link_criticality{};
};

/// Throws Error unless c is finite and > 0 and the penalty finite and >= 0.
void check_fault_cost(const FaultCost& cost);

/// Costs that replace some of FaultCost::link_extra's (link id, cost): a
/// running job placed again sees the running set's costs with its own bytes
/// taken off its links, without a link-sized copy until a strategy needs one.
using LinkCostPatch = std::vector<std::pair<int, double>>;
/// `base` with the patch's entries replaced; `base` itself when the patch is
/// empty. Throws Error on a link id outside `base`.
std::shared_ptr<const std::vector<double>> patched_link_costs(
    const std::shared_ptr<const std::vector<double>>& base, const LinkCostPatch& patch);

/// True when some node has p > 0 (an empty vector: none).
bool any_faulty(const std::vector<double>& outage);

/// Whether `node` has p > 0; `outage` empty (none) or checked to cover it.
inline bool may_fail(int node, const std::vector<double>& outage) {
  return !outage.empty() && outage[node] > 0;
}

/// Cost of one link: c, or c + penalty*c when either endpoint has p > 0.
double link_cost(const Link& link, const std::vector<double>& outage, const FaultCost& cost);

/// w(u,v) = sum over links of R(u,v) of link_cost (Equation 1), plus c times
/// each link's link_extra.
double fault_weighted_distance(const Topology& topology, const std::vector<double>& outage,
                               int from, int to, const FaultCost& cost);

/// The Equation 1 objective of a placement: over every communicating pair
/// {a,b} of `graph` on different nodes, bytes(a,b) times the route cost
/// fault_weighted_distance of R(p_a,p_b) plus that of R(p_b,p_a), halved
/// (with no faulty node on the way: hop-bytes). `outage` has one entry per
/// node.
double fault_weighted_hop_bytes(const Topology& topology, const CommGraph& graph,
                                const std::vector<int>& placement,
                                const std::vector<double>& outage, const FaultCost& cost);
/// The same with the routes' faulty links from `faults` (built on the same
/// outages), which keeps its tables between calls.
double fault_weighted_hop_bytes(const Topology& topology, const CommGraph& graph,
                                const std::vector<int>& placement, RouteFaults& faults,
                                const FaultCost& cost);

/// 1 - prod(1 - p_n) over every node the placement uses and every node that
/// a route between two communicating tasks (an edge of `graph`), R(u,v) or
/// R(v,u), passes through.
/// `placement[t]` is the node of task t; `outage` is per node (empty = all 0).
double expected_abort_probability(const Topology& topology, const CommGraph& graph,
                                  const std::vector<int>& placement,
                                  const std::vector<double>& outage);
/// The same with `faults` built on `outage`: only routes with a faulty link are walked.
double expected_abort_probability(const Topology& topology, const CommGraph& graph,
                                  const std::vector<int>& placement,
                                  const std::vector<double>& outage, RouteFaults& faults);

}  // namespace tofa
