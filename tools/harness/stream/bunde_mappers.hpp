// The seed Bunde's section 5: each job's allocation, as MC1x1 or snake best
// fit chose it, handed to every task mapper of the seed and scored by
// average hops (the seed's Figures 16 and 17).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa::harness {

/// The seed's mappers as registered strategies, in the order of its figures
/// (BASELINE is the allocation order itself, reported beside them).
const std::vector<std::string>& bunde_mappers();

/// Average hops of the job's x-by-y stencil (bunde_stencil_graph) when each
/// of `mappers` lays it on the ranks of `task_nodes` (task t of the
/// allocation on node task_nodes[t]; every node keeps the number of tasks
/// it has there), by mapper name. nullopt when the nodes hold different
/// numbers of tasks: the strategies see one slot count for every node, so
/// only such allocations are the seed's "ranks" exactly. INCIMPROVE is
/// bounded to `incimprove_evaluations` examined swaps (deterministic).
/// Throws tofa::Error for no task, an unknown mapper or a job a mapper
/// refuses.
std::optional<std::map<std::string, double>> bunde_mapper_hops(
    const std::vector<std::string>& mappers, const Topology& topology,
    const std::vector<int>& task_nodes, long incimprove_evaluations = 1000000);

}  // namespace tofa::harness
