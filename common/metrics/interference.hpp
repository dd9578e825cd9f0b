// Interference: the traffic other jobs already send over the links a job's
// routes would use (jobs on a torus share links).
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "faults/faults.hpp"
#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace tofa {

/// Equation 1's extra cost of each directed link for a new job:
/// weight x load / (the mean load of the links that carry any), so a link at
/// that mean costs `weight` hops more. `background` holds bytes per link
/// (Topology::link_id), as link_loads gives them, summed over the running
/// jobs. Null when weight is 0 or no link carries traffic.
std::shared_ptr<const std::vector<double>> interference_link_costs(
    const std::vector<double>& background, double weight);

/// Sets `cost`'s link_extra from `background` and `weight` as above, and
/// link_extra_bytes (the mean load of the loaded links / weight). With
/// cost.shared_links the loads are both_ways(background) first.
void add_interference(FaultCost& cost, const Topology& topology,
                      const std::vector<double>& background, double weight);

/// Loads per directed link (Topology::link_id) where each link carries its
/// own and its reverse's: what a link whose two directions share one
/// bandwidth carries.
std::vector<double> both_ways(const Topology& topology, const std::vector<double>& loads);

/// A running job's routes: its graph and the node of each task.
struct RunningJobRoutes {
  const CommGraph* graph = nullptr;
  const std::vector<int>* placement = nullptr;
};

/// The share of the slowest running flow's estimated time from which a
/// running flow's links count (link_criticality).
constexpr double kCriticalShare = 0.8;

/// On links shared both ways with TCP (tcp_flows.hpp), how much a new job's
/// bytes on each link would lengthen the running job that ends last, and
/// with it the batch: 1 on the links (both directions) of the running flow
/// estimated slowest (its hops times the running jobs' usage of its busiest
/// link), falling to 0 for flows estimated at kCriticalShare of its time or
/// less; the largest of the flows on a link. A collective waits for its
/// slowest flow; elsewhere, under TCP's sharing, a new job's bytes may even
/// speed the last job up. Null when no running job sends between nodes.
std::shared_ptr<const std::vector<double>> link_criticality(const Topology& topology,
                                                           const std::vector<RunningJobRoutes>& jobs);

/// Extra hops a link of the running flow estimated slowest costs a new job
/// at InterferenceWeight 1 (link_criticality 1), on links shared both ways.
constexpr double kCriticalLinkHops = 4;

/// With cost.shared_links and cost.link_extra (add_interference first):
/// sets cost.link_criticality of `jobs` and adds weight x kCriticalLinkHops x
/// it to each link's link_extra, so the strategies' routes keep off the
/// links where the new job would lengthen the batch.
void add_link_criticality(FaultCost& cost, const Topology& topology,
                          const std::vector<RunningJobRoutes>& jobs, double weight);

/// Of the job's link traffic (the sum over links of its link_loads), the
/// share on links that carry other jobs' traffic: 0 alone, 1 when every
/// byte-hop meets another job. 0 for a job that sends nothing between nodes.
double shared_traffic_fraction(const CommGraph& graph, const Topology& topology,
                               const std::vector<int>& placement,
                               const std::vector<double>& background);

/// The same share from the job's bytes per link (sparse: link id, bytes)
/// and the others' loads per link.
double shared_share(const std::vector<std::pair<int, double>>& own,
                    const std::vector<double>& others);

}  // namespace tofa
