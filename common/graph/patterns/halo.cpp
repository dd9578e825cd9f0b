#include <vector>

#include "graph/patterns/builders.hpp"

namespace tofa::patterns {

// Task ids in MPI_Cart_create's row-major order (the last dimension varies
// fastest). Each task sends each face neighbour width x bytes x the cells of
// the face, one message; without periodicity the outer faces send nothing.
CommGraph halo_pattern(const PatternSpec& spec) {
  spec.allow_only({"ranks", "cells", "periodic", "width", "bytes"});
  const std::vector<int> ranks = spec.sizes("ranks", 1, 3);
  const int dims = static_cast<int>(ranks.size());
  const std::vector<int> cells = spec.sizes("cells", dims, dims);
  const bool periodic = spec.flag("periodic", true);
  const long long width = spec.integer("width", 1, 1, 1 << 20);
  const double cell_bytes = spec.bytes("bytes", 8);
  for (int size : cells)
    if (width > size) spec.fail("width", "wider than a rank's cells");
  long long tasks = 1;
  for (int size : ranks) tasks *= size;
  check_pattern_size(spec, "ranks", tasks, tasks * 2 * dims);

  std::vector<double> face(dims, static_cast<double>(width) * cell_bytes);
  for (int k = 0; k < dims; ++k)
    for (int j = 0; j < dims; ++j)
      if (j != k) face[k] *= cells[j];
  std::vector<int> stride(dims, 1);
  for (int k = dims - 2; k >= 0; --k) stride[k] = stride[k + 1] * ranks[k + 1];

  std::vector<CommEdge> edges;
  for (int task = 0; task < tasks; ++task)
    for (int k = 0; k < dims; ++k) {
      const int coordinate = task / stride[k] % ranks[k];
      for (int step : {-1, 1}) {
        int next = coordinate + step;
        if (next < 0 || next >= ranks[k]) {
          if (!periodic) continue;
          next = (next + ranks[k]) % ranks[k];
        }
        const int neighbour = task + (next - coordinate) * stride[k];
        if (neighbour != task) edges.push_back({task, neighbour, face[k], 1});
      }
    }
  return CommGraph::from_directed_edges(static_cast<int>(tasks), edges, Directions::Kept);
}

}  // namespace tofa::patterns
