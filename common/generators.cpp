#include "tofa/generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#include "tofa/error.hpp"

namespace tofa {

CommGraph stencil_graph(const std::vector<int>& dims, double bytes) {
  long long tasks = 1;
  for (int size : dims) {
    if (size < 1) throw Error("stencil dimensions must be positive");
    tasks *= size;
  }
  if (dims.empty() || tasks > (1 << 24)) throw Error("stencil must have 1 to 2^24 tasks");
  std::vector<CommEdge> edges;
  std::vector<int> coord(dims.size(), 0);
  for (int task = 0; task < tasks; ++task) {
    int stride = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      if (coord[d] + 1 < dims[d]) {
        edges.push_back({task, task + stride, bytes, 1});
        edges.push_back({task + stride, task, bytes, 1});
      }
      stride *= dims[d];
    }
    for (std::size_t d = 0; d < dims.size() && ++coord[d] == dims[d]; ++d) coord[d] = 0;
  }
  return CommGraph::from_directed_edges(static_cast<int>(tasks), edges);
}

CommGraph with_shuffled_ids(const CommGraph& graph, unsigned seed) {
  std::vector<int> rename(graph.task_count());
  for (int task = 0; task < graph.task_count(); ++task) rename[task] = task;
  std::shuffle(rename.begin(), rename.end(), std::mt19937(seed));
  std::vector<CommEdge> edges;
  for (const CommEdge& edge : graph.undirected_edges())
    edges.push_back({rename[edge.from], rename[edge.to], edge.bytes, edge.messages});
  return CommGraph::from_directed_edges(graph.task_count(), edges);
}

CommGraph power_law_graph(int tasks, double exponent, double bytes, unsigned seed) {
  if (tasks < 2) throw Error("a power-law graph needs at least 2 tasks");
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> pick(0, tasks - 1);
  std::vector<CommEdge> edges;
  for (int task = 0; task < tasks; ++task) {
    const int degree = std::clamp(
        static_cast<int>(std::lround(tasks * std::pow(task + 1.0, -exponent))), 1, tasks - 1);
    for (int k = 0; k < degree; ++k) {
      int partner = pick(engine);
      if (partner == task) partner = (partner + 1) % tasks;
      edges.push_back({task, partner, bytes, 1});
      edges.push_back({partner, task, bytes, 1});
    }
  }
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph chung_mesh_graph(int rows, int columns, double row_bytes, double column_bytes) {
  if (rows < 1 || columns < 1) throw Error("a mesh graph needs positive rows and columns");
  std::vector<CommEdge> edges;
  auto id = [columns](int row, int column) { return row * columns + column; };
  for (int row = 0; row < rows; ++row)
    for (int column = 0; column < columns; ++column) {
      for (int other = 0; other < columns; ++other)
        if (other != column) edges.push_back({id(row, column), id(row, other), row_bytes, 1});
      for (int next : {row - 1, row + 1})
        if (next >= 0 && next < rows)
          edges.push_back({id(row, column), id(next, column), column_bytes, 1});
    }
  return CommGraph::from_directed_edges(rows * columns, edges);
}

bool is_graph_spec(const std::string& text) { return text.rfind("stencil:", 0) == 0; }

CommGraph graph_from_spec(const std::string& spec) {
  const std::string expected =
      "bad graph spec '" + spec + "': expected 'stencil:AxBxC' with optional ':BYTES'";
  if (!is_graph_spec(spec)) throw Error(expected);
  std::string rest = spec.substr(8);
  double bytes = 1.0;
  std::size_t colon = rest.find(':');
  if (colon != std::string::npos) {
    char* end = nullptr;
    bytes = std::strtod(rest.c_str() + colon + 1, &end);
    if (*end != '\0' || !(bytes > 0)) throw Error(expected);
    rest = rest.substr(0, colon);
  }
  std::vector<int> dims;
  const char* cursor = rest.c_str();
  while (true) {
    char* end = nullptr;
    long size = std::strtol(cursor, &end, 10);
    if (end == cursor || size < 1 || size > 1 << 20) throw Error(expected);
    dims.push_back(static_cast<int>(size));
    if (*end == '\0') break;
    if (*end != 'x') throw Error(expected);
    cursor = end + 1;
  }
  return stencil_graph(dims, bytes);
}

}  // namespace tofa
