#include "task_limits.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <unordered_map>

#include "base/error.hpp"
#include "capacity_repair.hpp"

namespace tofa {
namespace {

/// Hop-bytes added by moving `task` from its node to `target`.
double move_cost(const MappingRequest& request, const Placement& placement, int task, int target) {
  const CommGraph& graph = *request.graph;
  const Topology& topology = *request.topology;
  double cost = 0;
  for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
    const int peer_node = placement[graph.adjacency()[k]];
    cost += graph.bytes()[k] * (topology.hop_distance(target, peer_node) -
                                topology.hop_distance(placement[task], peer_node));
  }
  return cost;
}

/// Limit per topology node id (0 for unlisted nodes).
std::vector<int> per_node(const Topology& topology, const TaskLimits& limits,
                          const std::vector<int>& values) {
  std::vector<int> result(topology.node_count(), 0);
  for (std::size_t i = 0; i < limits.nodes.size(); ++i) result[limits.nodes[i]] = values[i];
  return result;
}

}  // namespace

void check_task_limits(const MappingRequest& request, const TaskLimits& limits) {
  if (limits.nodes.size() != limits.min_tasks.size() ||
      limits.nodes.size() != limits.max_tasks.size())
    throw Error("internal: one task limit per node expected");
  std::int64_t least = 0, most = 0;
  for (std::size_t i = 0; i < limits.nodes.size(); ++i) {
    if (limits.min_tasks[i] < 0 || limits.max_tasks[i] < 1 ||
        limits.max_tasks[i] < limits.min_tasks[i])
      throw Error("internal: bad task limits for node " +
                  request.topology->node_name(limits.nodes[i]));
    least += limits.min_tasks[i];
    most += limits.max_tasks[i];
  }
  const std::int64_t tasks = request.graph->task_count();
  const std::string nodes = std::to_string(limits.nodes.size()) + " nodes";
  if (tasks < least)
    throw Error(std::to_string(tasks) + " tasks cannot give the " + std::to_string(least) +
                " tasks the " + nodes + " need at least");
  if (tasks > most)
    throw Error(std::to_string(tasks) + " tasks do not fit the " + std::to_string(most) +
                " task slots of " + nodes);
}

void fit_task_limits(const MappingRequest& request, const TaskLimits& limits,
                     Placement& placement) {
  check_task_limits(request, limits);
  repair_capacity(request, limits.nodes, limits.max_tasks, placement);

  const std::vector<int> min = per_node(*request.topology, limits, limits.min_tasks);
  std::vector<int> load(request.topology->node_count(), 0);
  for (int node : placement) ++load[node];
  const int tasks = static_cast<int>(placement.size());
  for (int short_node : limits.nodes) {
    while (load[short_node] < min[short_node]) {
      int best = -1;
      double best_cost = std::numeric_limits<double>::infinity();
      int best_hops = std::numeric_limits<int>::max();
      for (int task = 0; task < tasks; ++task) {
        const int from = placement[task];
        if (from == short_node || load[from] <= min[from]) continue;
        const double cost = move_cost(request, placement, task, short_node);
        const int hops = request.topology->hop_distance(from, short_node);
        if (cost < best_cost || (cost == best_cost && hops < best_hops)) {
          best = task;
          best_cost = cost;
          best_hops = hops;
        }
      }
      if (best < 0) throw Error("internal: no task left to meet a node's minimum");
      --load[placement[best]];
      placement[best] = short_node;
      ++load[short_node];
    }
  }
  check_limits_met(request, limits, placement);
}

TaskLimits keep_node_count(const TaskLimits& limits, const Placement& placement, int count,
                           int tasks) {
  const int listed = static_cast<int>(limits.nodes.size());
  if (count < 1 || count > listed)
    throw Error("the job asks for " + std::to_string(count) + " nodes, " +
                std::to_string(listed) + " can take its tasks");
  std::unordered_map<int, int> tasks_on;
  for (int node : placement) ++tasks_on[node];
  std::vector<int> placed(listed, 0);
  for (int i = 0; i < listed; ++i) placed[i] = tasks_on[limits.nodes[i]];
  std::vector<int> order(listed);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return placed[a] > placed[b]; });
  std::vector<int> kept(order.begin(), order.begin() + count);
  std::vector<int> dropped(order.begin() + count, order.end());
  const auto room = [&] {
    long long sum = 0;
    for (int i : kept) sum += limits.max_tasks[i];
    return sum;
  };
  const auto by_max = [&](int a, int b) { return limits.max_tasks[a] < limits.max_tasks[b]; };
  while (room() < tasks) {
    const auto smallest = std::min_element(kept.begin(), kept.end(), by_max);
    const auto largest = std::max_element(dropped.begin(), dropped.end(), by_max);
    if (largest == dropped.end() || limits.max_tasks[*largest] <= limits.max_tasks[*smallest])
      throw Error(std::to_string(tasks) + " tasks do not fit on any " + std::to_string(count) +
                  " of the " + std::to_string(listed) + " nodes");
    std::swap(*smallest, *largest);
  }
  std::sort(kept.begin(), kept.end());
  TaskLimits result;
  for (int i : kept) {
    result.nodes.push_back(limits.nodes[i]);
    result.min_tasks.push_back(std::max(1, limits.min_tasks[i]));
    result.max_tasks.push_back(limits.max_tasks[i]);
  }
  return result;
}

bool node_count_holds(const TaskLimits& limits, long long tasks, int min_nodes, int max_nodes) {
  const int listed = static_cast<int>(limits.nodes.size());
  if (listed == 0 || min_nodes > listed || (min_nodes > tasks)) return false;
  std::vector<int> largest = limits.max_tasks;
  std::sort(largest.begin(), largest.end(), std::greater<int>());
  const int most = max_nodes > 0 ? std::min(max_nodes, listed) : listed;
  return std::accumulate(largest.begin(), largest.begin() + most, 0LL) >= tasks;
}

unsigned task_limit(unsigned cpus, unsigned cpus_per_task, unsigned tasks_per_node,
                    bool overcommit) {
  unsigned limit = overcommit ? kMaxTasksPerNode : cpus / std::max(1u, cpus_per_task);
  if (tasks_per_node > 0) limit = std::min(limit, tasks_per_node);
  return std::min(limit, kMaxTasksPerNode);
}

void node_bounds(unsigned tasks, unsigned tasks_per_node, unsigned& min_nodes,
                 unsigned& max_nodes) {
  if (tasks == 0 || tasks_per_node == 0) return;
  const unsigned needed = tasks / tasks_per_node + (tasks % tasks_per_node != 0);
  min_nodes = std::max(min_nodes, needed);
  if (max_nodes == 0 || needed < max_nodes) max_nodes = std::max(needed, min_nodes);
}

std::vector<unsigned> spread_task_limits(std::vector<unsigned> room, unsigned tasks,
                                         unsigned min_nodes) {
  if (tasks == 0 || min_nodes <= 1 || room.empty()) return room;
  std::vector<unsigned> most = room;
  const std::size_t kept = std::min<std::size_t>(min_nodes, most.size());
  std::partial_sort(most.begin(), most.begin() + kept, most.end(), std::greater<unsigned>());
  const auto held_under = [&](unsigned cap) {
    unsigned long long held = 0;
    for (std::size_t i = 0; i < kept; ++i) held += std::min(most[i], cap);
    return held >= tasks;
  };
  unsigned cap = (tasks + min_nodes - 1) / min_nodes;
  if (!held_under(cap)) {
    // The smallest cap that holds the job, if any: held_under grows with it.
    unsigned low = cap, high = std::max(cap, most.front());
    if (!held_under(high)) return room;
    while (low + 1 < high) {
      const unsigned middle = low + (high - low) / 2;
      (held_under(middle) ? high : low) = middle;
    }
    cap = high;
  }
  std::size_t full = 0;
  for (unsigned& limit : room) {
    limit = std::min(limit, cap);
    full += limit == cap;
  }
  if (full >= min_nodes)
    for (unsigned& limit : room)
      if (limit < cap) limit = 0;
  return room;
}

void check_limits_met(const MappingRequest& request, const TaskLimits& limits,
                      const Placement& placement) {
  const Topology& topology = *request.topology;
  const std::vector<int> min = per_node(topology, limits, limits.min_tasks);
  const std::vector<int> max = per_node(topology, limits, limits.max_tasks);
  std::vector<int> load(topology.node_count(), 0);
  for (std::size_t task = 0; task < placement.size(); ++task) {
    const int node = placement[task];
    if (node < 0 || node >= topology.node_count() || max[node] == 0)
      throw Error("task " + std::to_string(task) + " is on a node outside the list");
    if (++load[node] > max[node])
      throw Error("node " + topology.node_name(node) + " holds more than its " +
                  std::to_string(max[node]) + " tasks");
  }
  for (int node : limits.nodes)
    if (load[node] < min[node])
      throw Error("node " + topology.node_name(node) + " holds fewer than its " +
                  std::to_string(min[node]) + " tasks");
}

}  // namespace tofa
