// F_min of the seed: every task's partners "dealt out" by decreasing traffic
// into shells of increasing distance around it.
#include <algorithm>
#include <functional>

#include "base/error.hpp"
#include "distance_table.hpp"
#include "map/anneal/energy.hpp"

namespace tofa {

namespace {

/// The distances from node 0 of the wrap-all torus to its `count` nearest
/// nodes (itself first), in increasing order. Every metric is at least the
/// largest per-dimension step, so the nodes within `radius` steps along
/// every dimension hold all nodes nearer than `radius`: that box is grown
/// until its count-th distance is within it. A job's tasks have far fewer
/// partners than a 65,536-node torus has nodes.
std::vector<double> nearest_shells(const Topology& topology, std::size_t count,
                                   DistanceMetric metric) {
  const std::vector<int>& dims = topology.dims();
  count = std::min(count, static_cast<std::size_t>(topology.node_count()));
  for (int radius = 1;; radius *= 2) {
    std::vector<int> box;
    std::vector<int> offset(dims.size(), -radius), coords(dims.size());
    bool whole = true;
    for (std::size_t d = 0; d < dims.size(); ++d) whole = whole && 2 * radius + 1 >= dims[d];
    for (bool more = true; more;) {
      bool inside = true;
      for (std::size_t d = 0; d < dims.size(); ++d) {
        // Offsets beyond half the ring repeat nearer coordinates.
        const int span = std::min(radius, dims[d] / 2);
        inside = inside && offset[d] >= -span && offset[d] <= span;
        coords[d] = ((offset[d] % dims[d]) + dims[d]) % dims[d];
      }
      if (inside) box.push_back(topology.node_at(coords));
      more = false;
      for (std::size_t d = 0; d < dims.size() && !more; ++d) {
        if (++offset[d] <= radius) more = true;
        else offset[d] = -radius;
      }
    }
    std::sort(box.begin(), box.end());
    box.erase(std::unique(box.begin(), box.end()), box.end());
    const anneal::DistanceTable table(topology, box, metric, /*wrap_all=*/true);
    std::vector<double> shell(box.size());
    for (std::size_t i = 0; i < box.size(); ++i) shell[i] = table.distance(0, static_cast<int>(i));
    std::sort(shell.begin(), shell.end());
    if (whole || (shell.size() >= count && shell[count - 1] <= radius)) {
      shell.resize(std::min(count, shell.size()));
      return shell;
    }
  }
}

}  // namespace

double free_energy_lower_bound(const CommGraph& graph, const Topology& topology,
                               int tasks_per_node, DistanceMetric metric) {
  if (tasks_per_node < 1)
    throw Error("tasks per node must be at least 1, got " + std::to_string(tasks_per_node));
  // The full torus is vertex-transitive: node 0's distances are everyone's.
  std::size_t most_partners = 0;
  for (int task = 0; task < graph.task_count(); ++task)
    most_partners = std::max<std::size_t>(most_partners, graph.offsets()[task + 1] - graph.offsets()[task]);
  const std::vector<double> shell =
      nearest_shells(topology, 2 + most_partners / tasks_per_node, metric);

  // Slot k (0-based) of a task: the first tasks_per_node - 1 share its node,
  // then each further node in distance order offers tasks_per_node slots.
  auto slot_distance = [&](std::size_t k) {
    const std::size_t own = static_cast<std::size_t>(tasks_per_node) - 1;
    if (k < own) return 0.0;
    const std::size_t node = 1 + (k - own) / tasks_per_node;
    return node < shell.size() ? shell[node] : shell.back();
  };

  double twice_bound = 0;
  std::vector<double> weights;
  for (int task = 0; task < graph.task_count(); ++task) {
    weights.assign(graph.bytes().begin() + graph.offsets()[task],
                   graph.bytes().begin() + graph.offsets()[task + 1]);
    std::sort(weights.begin(), weights.end(), std::greater<double>());
    for (std::size_t k = 0; k < weights.size(); ++k) twice_bound += weights[k] * slot_distance(k);
  }
  return twice_bound / 2;
}

}  // namespace tofa
