#include "bunde_mappers.hpp"

#include "base/error.hpp"
#include "map/mapper.hpp"
#include "metrics/metrics.hpp"
#include "stream_metrics.hpp"

namespace tofa::harness {

const std::vector<std::string>& bunde_mappers() {
  static const std::vector<std::string> names = {
      "stencil-colmajor", "stencil-rowmajor", "stencil-ordered",       "stencil-corner",
      "stencil-allcorners", "stencil-overlay", "stencil-twowayoverlay", "stencil-rcb",
      "stencil-incimprove"};
  return names;
}

std::optional<std::map<std::string, double>> bunde_mapper_hops(
    const std::vector<std::string>& mappers, const Topology& topology,
    const std::vector<int>& task_nodes, long incimprove_evaluations) {
  if (task_nodes.empty()) throw Error("bunde_mapper_hops: a job of no task");
  std::map<int, int> tasks_on;
  MappingRequest request;
  for (int node : task_nodes)
    if (tasks_on[node]++ == 0) request.candidate_nodes.push_back(node);
  const int per_node = tasks_on.begin()->second;
  for (const auto& [node, count] : tasks_on)
    if (count != per_node) return std::nullopt;

  const int tasks = static_cast<int>(task_nodes.size());
  const CommGraph graph = bunde_stencil_graph(tasks);
  const JobShape shape = bunde_shape(tasks);
  request.graph = &graph;
  request.topology = &topology;
  request.slots_per_node = per_node;
  request.parameters["stencil"] = std::to_string(shape.x) + "x" + std::to_string(shape.y);
  request.parameters["max-evaluations"] = std::to_string(incimprove_evaluations);
  std::map<std::string, double> hops;
  for (const std::string& mapper : mappers)
    hops[mapper] = evaluate_placement(graph, topology, make_mapper(mapper)->map(request)).average_hops;
  return hops;
}

}  // namespace tofa::harness
