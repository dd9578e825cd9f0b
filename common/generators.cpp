#include "tofa/generators.hpp"

#include <cstdlib>

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
