// On a machine much larger than the job, the candidates auto searches: a
// compact ball of fault-free candidates around the spot where they are
// densest. Every strategy auto runs costs at least its candidate count
// (Scotch builds a target of them, greedy and annealing scan them), so on a
// 65,536-node torus a 64-task job would otherwise pay for 32,768 idle nodes.
#pragma once

#include <vector>

#include "map/mapper.hpp"

namespace tofa {

/// The candidates' count (every node when the list is empty), not validated.
std::size_t candidate_count(const MappingRequest& request);

/// The nodes the job needs: tasks / slots, rounded up.
int nodes_needed(const MappingRequest& request);

/// Empty when the candidates are few enough to search them all (at most
/// kWholeMachineNodes, or kWindowPerNodeNeeded times the nodes the job
/// needs, at least kWindowMinNodes); otherwise fault_free_ball of that many.
std::vector<int> candidate_window(const MappingRequest& request);

/// `size` candidates (all when there are no more), in the request's
/// candidate order: the fault-free ones (every candidate when those cannot
/// hold the job) nearest in hops to one of kWindowCenters centers spread
/// over the candidate list: the one whose ball passes the fewest nodes that
/// may fail, then the smallest.
std::vector<int> fault_free_ball(const MappingRequest& request, int size);

}  // namespace tofa
