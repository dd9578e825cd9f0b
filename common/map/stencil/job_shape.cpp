#include "job_shape.hpp"

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "base/error.hpp"

namespace tofa {
namespace stencil {

Triple parse_shape(const std::string& text, const std::string& context) {
  const std::string expected =
      context + ": expected XxYxZ with 1 to 3 positive integers, found '" + text + "'";
  Triple shape{1, 1, 1};
  std::size_t axis = 0;
  const char* cursor = text.c_str();
  while (true) {
    if (axis == 3 || *cursor < '0' || *cursor > '9') throw Error(expected);
    char* end = nullptr;
    const long size = std::strtol(cursor, &end, 10);
    if (size < 1 || size > (1 << 24)) throw Error(expected);
    shape[axis++] = static_cast<int>(size);
    if (*end == '\0') break;
    if (*end != 'x') throw Error(expected);
    cursor = end + 1;
  }
  if (static_cast<long long>(shape[0]) * shape[1] * shape[2] > (1 << 24)) throw Error(expected);
  return shape;
}

bool infer_shape(const CommGraph& graph, Triple* shape) {
  const int tasks = graph.task_count();
  if (tasks < 1) return false;
  const auto& offsets = graph.offsets();
  const auto& adjacency = graph.adjacency();
  // Task 0's neighbours are the strides of the axes longer than 1: 1, X, X*Y.
  std::vector<int> strides(adjacency.begin() + offsets[0], adjacency.begin() + offsets[1]);
  if (strides.size() > 3 || (!strides.empty() && strides[0] != 1)) return false;
  Triple found{1, 1, 1};
  for (std::size_t axis = 0; axis < strides.size(); ++axis) {
    const int next = axis + 1 < strides.size() ? strides[axis + 1] : tasks;
    if (next % strides[axis] != 0 || next / strides[axis] < 2) return false;
    found[axis] = next / strides[axis];
  }
  if (static_cast<long long>(found[0]) * found[1] * found[2] != tasks) return false;

  // Every task must have exactly its stencil neighbours (sorted, like the CSR lists).
  const int stride[3] = {1, found[0], found[0] * found[1]};
  std::vector<int> expected;
  for (int task = 0; task < tasks; ++task) {
    const int coord[3] = {task % found[0], (task / found[0]) % found[1],
                          task / (found[0] * found[1])};
    expected.clear();
    for (int axis = 2; axis >= 0; --axis)
      if (coord[axis] > 0) expected.push_back(task - stride[axis]);
    for (int axis = 0; axis < 3; ++axis)
      if (coord[axis] + 1 < found[axis]) expected.push_back(task + stride[axis]);
    if (static_cast<std::int64_t>(expected.size()) != offsets[task + 1] - offsets[task]) return false;
    for (std::size_t k = 0; k < expected.size(); ++k)
      if (adjacency[offsets[task] + k] != expected[k]) return false;
  }
  *shape = found;
  return true;
}

Triple job_shape(const MappingRequest& request, const std::string& strategy) {
  const int tasks = request.graph->task_count();
  const std::string given = parameter(request, "stencil");
  if (!given.empty()) {
    const Triple shape = parse_shape(given, strategy + ": parameter stencil");
    const long long volume = static_cast<long long>(shape[0]) * shape[1] * shape[2];
    if (volume != tasks) {
      throw Error(strategy + ": stencil " + given + " has " + std::to_string(volume) +
                  " tasks but the graph has " + std::to_string(tasks));
    }
    return shape;
  }
  Triple shape;
  if (!infer_shape(*request.graph, &shape)) {
    throw Error(strategy +
                ": the communication graph is not a recognizable XxYxZ stencil; give the job "
                "shape with the parameter stencil=XxYxZ");
  }
  return shape;
}

}  // namespace stencil
}  // namespace tofa
