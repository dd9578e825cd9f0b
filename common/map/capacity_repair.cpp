#include "capacity_repair.hpp"

#include <algorithm>
#include <utility>

#include "base/error.hpp"
#include "slot_pool.hpp"

namespace tofa {
namespace {

/// Bytes task exchanges with the other tasks currently on `node`.
double colocated_bytes(const CommGraph& graph, const Placement& placement, int task, int node) {
  double total = 0;
  for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k)
    if (placement[graph.adjacency()[k]] == node) total += graph.bytes()[k];
  return total;
}

}  // namespace

void repair_capacity(const MappingRequest& request, const std::vector<int>& nodes, int slots,
                     Placement& placement) {
  repair_capacity(request, nodes, std::vector<int>(nodes.size(), slots), placement);
}

void repair_capacity(const MappingRequest& request, const std::vector<int>& nodes,
                     const std::vector<int>& slots, Placement& placement) {
  const CommGraph& graph = *request.graph;
  std::vector<int> slots_of(request.topology->node_count(), 0);
  for (std::size_t i = 0; i < nodes.size(); ++i) slots_of[nodes[i]] = slots[i];
  std::vector<std::vector<int>> tasks_on(request.topology->node_count());
  for (int task = 0; task < static_cast<int>(placement.size()); ++task)
    tasks_on[placement[task]].push_back(task);
  bool over = false;
  for (std::size_t node = 0; node < tasks_on.size(); ++node)
    over = over || static_cast<int>(tasks_on[node].size()) > slots_of[node];
  if (!over) return;

  const std::vector<double> volume = graph.task_volumes();
  std::vector<std::pair<int, int>> leaving;  // (task, old node)
  for (int node = 0; node < static_cast<int>(tasks_on.size()); ++node) {
    std::vector<int>& here = tasks_on[node];
    while (static_cast<int>(here.size()) > slots_of[node]) {
      auto lightest = here.begin();
      double lightest_bytes = colocated_bytes(graph, placement, *lightest, node);
      for (auto it = here.begin() + 1; it != here.end(); ++it) {
        const double bytes = colocated_bytes(graph, placement, *it, node);
        // `here` is in increasing task order, so ties keep the later (higher) id.
        if (bytes < lightest_bytes ||
            (bytes == lightest_bytes && volume[*it] <= volume[*lightest])) {
          lightest = it;
          lightest_bytes = bytes;
        }
      }
      leaving.emplace_back(*lightest, node);
      placement[*lightest] = -1;
      here.erase(lightest);
    }
  }

  std::vector<int> by_id = nodes;
  std::sort(by_id.begin(), by_id.end());
  std::vector<int> free_slots;
  for (int node : by_id) free_slots.push_back(slots_of[node] - static_cast<int>(tasks_on[node].size()));
  SlotPool pool(request, std::move(by_id), free_slots);
  for (const auto& [task, old_node] : leaving) {
    const int target = pool.nearest_free(old_node);
    if (target < 0) throw Error("internal: no free slot left for task " + std::to_string(task));
    pool.take(target);
    placement[task] = target;
  }
}

}  // namespace tofa
