// Moving a placement's routes off failing nodes: a job aborts when a node
// it runs on or one its routes pass fails, so a placement on fault-free
// nodes whose every edge's routes R(u,v) and R(v,u) cross no faulty link
// has P(abort) = 0. An annealer under a large penalty gets there only when
// its chain has time (at 128 tasks of a power-law graph it needed ~100 ms
// of auto's 20); this search goes straight at the crossing edges.
#pragma once

#include "faults/route_faults.hpp"
#include "map/mapper.hpp"

namespace tofa {

/// From `start` (a placement of `request`), moves a task to a free slot of
/// a fault-free candidate, or swaps it with a task there, or sends that task
/// on to a free slot (an ejection chain), while that lowers the number of
/// edges whose routes cross a faulty link plus the tasks on nodes that may
/// fail: each task of such an edge in turn takes its move that lowers that
/// count most, ties to the fewest hop-bytes. When no move lowers it, a tabu
/// search takes the best move of any such task that has not just moved, and
/// keeps the placement with the fewest. Ends when none is left, after
/// kStuckSteps steps without a new fewest, or when `seconds` (0: no limit)
/// are spent. `faults` holds the request's outages.
Placement clear_routes(const MappingRequest& request, const Placement& start, RouteFaults& faults,
                       double seconds);

}  // namespace tofa
