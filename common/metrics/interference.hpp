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
