// Job shapes and per-job metrics of the stream simulation.
#include "stream_metrics.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <unordered_map>

#include "base/error.hpp"
#include "graph/generators.hpp"
#include "metrics/metrics.hpp"

namespace tofa::harness {

JobShape bunde_shape(int tasks) {
  if (tasks < 1) throw Error("job shape: tasks must be >= 1, got " + std::to_string(tasks));
  int x = 1;
  for (long long d = 1; d * d <= tasks; ++d)
    if (tasks % d == 0) x = static_cast<int>(d);
  return {x, tasks / x};
}

ShapeSkip bunde_skip(int tasks, const Topology& topology) {
  if (tasks <= 1) return ShapeSkip::Serial;
  std::vector<int> dims = topology.dims();
  std::sort(dims.begin(), dims.end(), std::greater<int>());
  const int largest = dims[0];
  const int second = dims.size() > 1 ? dims[1] : 1;
  const JobShape shape = bunde_shape(tasks);
  if (shape.y > largest || shape.x > second) return ShapeSkip::LargerThanMachine;
  return ShapeSkip::None;
}

std::string to_string(ShapeSkip skip) {
  switch (skip) {
    case ShapeSkip::Serial: return "serial";
    case ShapeSkip::LargerThanMachine: return "larger than the machine";
    case ShapeSkip::None: break;
  }
  return "";
}

CommGraph bunde_stencil_graph(int tasks, double bytes) {
  const JobShape shape = bunde_shape(tasks);
  return stencil_graph({shape.x, shape.y}, bytes);
}

std::vector<int> block_layout(const std::vector<int>& task_nodes) {
  std::vector<int> order;
  std::unordered_map<int, int> count;
  for (int node : task_nodes)
    if (count[node]++ == 0) order.push_back(node);
  std::vector<int> layout;
  layout.reserve(task_nodes.size());
  for (int node : order) layout.insert(layout.end(), static_cast<std::size_t>(count[node]), node);
  return layout;
}

JobMetrics job_metrics(double runtime, const CommGraph& graph, const Topology& topology,
                       const std::vector<int>& task_nodes, const std::vector<double>& outage,
                       double communication_share) {
  const PlacementMetrics placed = evaluate_placement(graph, topology, task_nodes, outage);
  const PlacementMetrics block = evaluate_placement(graph, topology, block_layout(task_nodes));
  JobMetrics metrics;
  metrics.hop_bytes = placed.hop_bytes;
  metrics.average_hops = placed.average_hops;
  metrics.abort_probability = placed.abort_probability;
  metrics.block_hop_bytes = block.hop_bytes;
  double ratio = 1;
  if (block.hop_bytes > 0)
    ratio = placed.hop_bytes / block.hop_bytes;
  else if (placed.total_bytes > 0)
    ratio = 1 + placed.hop_bytes / placed.total_bytes;
  const double survive = 1 - placed.abort_probability;
  metrics.expected_completion =
      survive > 0 ? runtime * (1 + communication_share * (ratio - 1)) / survive
                  : std::numeric_limits<double>::infinity();
  return metrics;
}

}  // namespace tofa::harness
