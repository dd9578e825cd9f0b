// The scheduler's node choice (issue 38): which nodes a job gets, in time
// linear in the candidates, so that slurmctld's scheduling pass never waits
// for a mapping strategy. The job's strategy then orders its tasks on these
// nodes outside slurmctld's locks (ServiceState::map_later).
#pragma once

#include <vector>

#include "map/mapper.hpp"
#include "map/task_limits.hpp"
#include "topology/topology.hpp"

namespace tofa {

/// A placement of `tasks` tasks within `limits` (each listed node at least
/// its minimum, at most its maximum): the box of usable nodes (maximum > 0,
/// fault-free ones while they hold the job) grown from one of a few corners
/// spread over the list, the one that passes the fewest nodes that may
/// fail, then the smallest; tasks in blocks in the box's order. At least
/// `min_nodes` nodes, at most `max_nodes` (0 = no bound). Throws Error when
/// the limits cannot hold the job.
Placement compact_choice(const Topology& topology, const TaskLimits& limits,
                         const std::vector<double>& outage, int tasks, int min_nodes,
                         int max_nodes);

}  // namespace tofa
