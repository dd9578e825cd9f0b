// Per-node task limits, as a Slurm allocation sets them: these nodes, at
// most so many tasks on each (the CPUs granted), and at least one on each
// (srun lays a step out over every node of the job).
#pragma once

#include <vector>

#include "map/mapper.hpp"

namespace tofa {

struct TaskLimits {
  std::vector<int> nodes;      ///< topology node ids, no repeats
  std::vector<int> min_tasks;  ///< parallel to nodes, >= 0
  std::vector<int> max_tasks;  ///< parallel to nodes, >= max(1, min_tasks)
};

/// Throws Error unless the graph's tasks can meet the limits: the sum of the
/// minimums <= tasks <= the sum of the maximums.
void check_task_limits(const MappingRequest& request, const TaskLimits& limits);

/// Moves as few tasks as it can so that every node meets its limits: first
/// tasks leave nodes above their maximum (see repair_capacity), then each
/// node below its minimum, in list order, takes one task at a time from a
/// node above its own minimum: the task whose move adds the fewest hop-bytes
/// (then the nearest, then the lowest id). `placement` may use only the
/// listed nodes.
void fit_task_limits(const MappingRequest& request, const TaskLimits& limits,
                     Placement& placement);

/// The limits of the `count` nodes a job told to span exactly `count` nodes
/// (srun -N) keeps: the nodes holding the most tasks of `placement` (ties in
/// list order, so the preferred ones), then, while their maximums cannot
/// hold `tasks`, the kept node with the smallest maximum gives way to the
/// dropped one with the largest. Every kept node takes at least one task.
/// In list order; throws Error when no `count` nodes hold `tasks`.
TaskLimits keep_node_count(const TaskLimits& limits, const Placement& placement, int count,
                           int tasks);

/// True when some node count in [min_nodes, max_nodes] (0 = unbounded) of
/// the listed nodes can hold `tasks` within their maximums.
bool node_count_holds(const TaskLimits& limits, long long tasks, int min_nodes, int max_nodes);

/// The most tasks the scheduler shims ever give one node (e.g. --overcommit).
constexpr unsigned kMaxTasksPerNode = 65535;

/// The most tasks of a job a node offering `cpus` CPUs may run: cpus /
/// cpus_per_task (0 counts as 1), any number with overcommit, at most
/// tasks_per_node (0: no bound), never above kMaxTasksPerNode.
unsigned task_limit(unsigned cpus, unsigned cpus_per_task, unsigned tasks_per_node,
                    bool overcommit);

/// The node count a placement must span within [min_nodes, max_nodes] (0 =
/// unbounded): Slurm gives every node of a job with --ntasks-per-node that
/// many tasks, so with tasks_per_node > 0 it is exactly ceil(tasks /
/// tasks_per_node) nodes (at least min_nodes). Unchanged otherwise.
void node_bounds(unsigned tasks, unsigned tasks_per_node, unsigned& min_nodes,
                 unsigned& max_nodes);

/// The scheduler's per-node limits for a job of `tasks` tasks on at least
/// `min_nodes` nodes, from what each candidate's free CPUs hold (`room`, 0:
/// unusable). With min_nodes > 1 a node takes at most a share: the even
/// ceil(tasks / min_nodes), raised while the min_nodes nodes that hold the
/// most cannot take every task under it (on a busy cluster's uneven free
/// CPUs), up to no cap at all; when min_nodes nodes hold the whole share,
/// the nodes that hold less are left out (0).
std::vector<unsigned> spread_task_limits(std::vector<unsigned> room, unsigned tasks,
                                         unsigned min_nodes);

/// Throws Error unless every task is on a listed node and every node is
/// within its limits.
void check_limits_met(const MappingRequest& request, const TaskLimits& limits,
                      const Placement& placement);

}  // namespace tofa
