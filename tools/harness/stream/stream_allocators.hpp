// Allocate callbacks for simulate_easy that need no service: Slurm's block
// layout, the seed Bunde's MC1x1 and snake best fit, and any registered
// mapping strategy.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "easy_backfill.hpp"
#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace tofa::harness {

/// Slurm's block layout (default-slurm in common/map/baseline): the lowest
/// free node ids first, each filled with as many tasks as it has free slots.
/// Never returns nullopt when enough slots are free. O(nodes scanned + tasks).
Allocate block_allocator();

/// allocate_mc1x1 (common/alloc/allocators.hpp) on the busy mask "no free
/// slot": whole nodes, in the allocator's order, task by task, each node
/// taking min(its free slots, tasks left). When partly used nodes leave
/// the chosen nodes short of slots, the node count is raised by the
/// shortfall (in full nodes) and the choice repeated. `topology` must
/// outlive the callback and have as many nodes as the machine (checked on
/// each call: tofa::Error). O(free nodes^2) per call.
Allocate mc1x1_allocator(const Topology& topology);

/// The same with allocate_snake_best_fit. O(nodes) per call.
Allocate snake_best_fit_allocator(const Topology& topology);

/// The communication graph a strategy maps for a job.
using GraphForJob = std::function<CommGraph(const StreamJob& job)>;

/// Runs the registered strategy `strategy` (make_mapper; throws tofa::Error
/// at once for an unknown name) with the job's graph from `graph_for_job`,
/// candidate_nodes = the nodes with free slots in id order, slots_per_node
/// = `slots_per_node`, seed = job id and `parameters`. MappingRequest has
/// one slot count for every node, so with slots_per_node > 1 only fully
/// free nodes are candidates (partly used ones are left out, not packed).
/// A strategy's Error is taken as "cannot place now" (nullopt) while other
/// jobs run; on an idle machine it is rethrown naming strategy and job.
/// `topology` must outlive the callback and have the machine's node count.
Allocate strategy_allocator(const Topology& topology, const std::string& strategy,
                            int slots_per_node, GraphForJob graph_for_job,
                            std::map<std::string, std::string> parameters = {});

}  // namespace tofa::harness
