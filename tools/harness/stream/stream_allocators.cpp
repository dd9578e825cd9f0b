// The allocators of the job stream simulation.
#include "stream_allocators.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "alloc/allocators.hpp"
#include "base/error.hpp"
#include "map/mapper.hpp"

namespace tofa::harness {
namespace {

void check_size(const Topology& topology, const std::vector<int>& free_slots,
                const char* allocator) {
  if (free_slots.size() != static_cast<std::size_t>(topology.node_count())) {
    throw Error(std::string(allocator) + ": the machine has " +
                std::to_string(free_slots.size()) + " nodes but the topology " +
                std::to_string(topology.node_count()));
  }
}

/// Whole-node allocation through a tofa::Allocator on the "no free slot" mask.
Allocate whole_node_allocator(const Topology& topology, tofa::Allocator choose,
                              const char* name) {
  return [&topology, choose, name](const StreamJob& job,
                                   const std::vector<int>& free_slots)
             -> std::optional<std::vector<int>> {
    check_size(topology, free_slots, name);
    std::vector<bool> busy(free_slots.size());
    int free_nodes = 0;
    int most_slots = 1;
    long long free_total = 0;
    for (std::size_t n = 0; n < free_slots.size(); ++n) {
      busy[n] = free_slots[n] <= 0;
      if (!busy[n]) {
        ++free_nodes;
        free_total += free_slots[n];
        most_slots = std::max(most_slots, free_slots[n]);
      }
    }
    if (job.tasks > free_total) return std::nullopt;
    int count = std::min(free_nodes, (job.tasks + most_slots - 1) / most_slots);
    for (;;) {
      const std::vector<int> nodes = choose(topology, busy, count);
      long long slots = 0;
      for (int node : nodes) slots += free_slots[node];
      if (slots >= job.tasks) {
        std::vector<int> task_nodes;
        task_nodes.reserve(static_cast<std::size_t>(job.tasks));
        for (int node : nodes) {
          for (int k = 0; k < free_slots[node] && static_cast<int>(task_nodes.size()) < job.tasks;
               ++k)
            task_nodes.push_back(node);
        }
        return task_nodes;
      }
      // Short of slots on partly used nodes: ask for enough more nodes to
      // cover the shortfall even if they are full ones.
      const long long more = (job.tasks - slots + most_slots - 1) / most_slots;
      count = static_cast<int>(std::min<long long>(free_nodes, count + more));
    }
  };
}

}  // namespace

Allocate block_allocator() {
  return [](const StreamJob& job,
            const std::vector<int>& free_slots) -> std::optional<std::vector<int>> {
    std::vector<int> task_nodes;
    task_nodes.reserve(static_cast<std::size_t>(std::max(job.tasks, 0)));
    for (std::size_t n = 0; n < free_slots.size() && static_cast<int>(task_nodes.size()) < job.tasks;
         ++n) {
      for (int k = 0; k < free_slots[n] && static_cast<int>(task_nodes.size()) < job.tasks; ++k)
        task_nodes.push_back(static_cast<int>(n));
    }
    if (static_cast<int>(task_nodes.size()) < job.tasks) return std::nullopt;
    return task_nodes;
  };
}

Allocate mc1x1_allocator(const Topology& topology) {
  return whole_node_allocator(topology, allocate_mc1x1, "MC1x1 allocator");
}

Allocate snake_best_fit_allocator(const Topology& topology) {
  return whole_node_allocator(topology, allocate_snake_best_fit, "snake best fit allocator");
}

Allocate strategy_allocator(const Topology& topology, const std::string& strategy,
                            int slots_per_node, GraphForJob graph_for_job,
                            std::map<std::string, std::string> parameters) {
  if (slots_per_node < 1)
    throw Error("strategy allocator: slots per node must be >= 1, got " +
                std::to_string(slots_per_node));
  if (!graph_for_job) throw Error("strategy allocator: no graph for the jobs");
  std::shared_ptr<const Mapper> mapper = make_mapper(strategy);
  return [&topology, strategy, slots_per_node, graph_for_job = std::move(graph_for_job),
          parameters = std::move(parameters),
          mapper](const StreamJob& job,
                  const std::vector<int>& free_slots) -> std::optional<std::vector<int>> {
    check_size(topology, free_slots, "strategy allocator");
    MappingRequest request;
    bool idle = true;
    for (std::size_t n = 0; n < free_slots.size(); ++n) {
      // One slot count per request: only fully free nodes can be offered.
      if (free_slots[n] >= slots_per_node)
        request.candidate_nodes.push_back(static_cast<int>(n));
      else
        idle = false;
    }
    if (static_cast<long long>(request.candidate_nodes.size()) * slots_per_node < job.tasks)
      return std::nullopt;
    const CommGraph graph = graph_for_job(job);
    if (graph.task_count() != job.tasks) {
      throw Error("strategy allocator: the graph of job " + std::to_string(job.id) + " has " +
                  std::to_string(graph.task_count()) + " tasks, the job " +
                  std::to_string(job.tasks));
    }
    request.graph = &graph;
    request.topology = &topology;
    request.slots_per_node = slots_per_node;
    request.seed = static_cast<std::uint64_t>(job.id);
    request.parameters = parameters;
    try {
      Placement placement = mapper->map(request);
      check_placement(request, placement);
      return placement;
    } catch (const Error& error) {
      if (!idle) return std::nullopt;
      throw Error("strategy " + strategy + ", job " + std::to_string(job.id) +
                  " on the idle machine: " + error.what());
    }
  };
}

}  // namespace tofa::harness
