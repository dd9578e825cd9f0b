#include <vector>

#include "graph/generators.hpp"
#include "graph/patterns/builders.hpp"
#include "graph/patterns/collectives.hpp"

namespace tofa::patterns {
namespace {

Group everyone(int tasks) {
  Group group(tasks);
  for (int i = 0; i < tasks; ++i) group[i] = i;
  return group;
}

}  // namespace

CommGraph allreduce_pattern(const PatternSpec& spec) {
  spec.allow_only({"ranks", "bytes", "algorithm"});
  const int tasks = static_cast<int>(spec.integer("ranks", 1, 1 << 24));
  const double bytes = spec.bytes("bytes");
  const std::string algorithm = spec.choice("algorithm", {"ring", "recursive-doubling", "binomial"});
  check_pattern_size(spec, "ranks", tasks, 2LL * tasks * 25);
  std::vector<CommEdge> edges;
  allreduce(algorithm, {everyone(tasks), bytes, 1, edges});
  return CommGraph::from_directed_edges(tasks, edges, Directions::Kept);
}

CommGraph bcast_pattern(const PatternSpec& spec) {
  spec.allow_only({"ranks", "bytes", "algorithm", "root"});
  const int tasks = static_cast<int>(spec.integer("ranks", 1, 1 << 24));
  const double bytes = spec.bytes("bytes");
  const std::string algorithm = spec.choice("algorithm", {"binomial", "linear", "pipeline"});
  const int root = static_cast<int>(spec.integer("root", 0, 0, tasks - 1));
  check_pattern_size(spec, "ranks", tasks, tasks);
  std::vector<CommEdge> edges;
  const Group group = everyone(tasks);
  const Collective c{group, bytes, 1, edges};
  if (algorithm == "binomial") binomial_bcast(c, root);
  if (algorithm == "linear") linear_bcast(c, root);
  if (algorithm == "pipeline") pipeline_bcast(c, root);
  return CommGraph::from_directed_edges(tasks, edges, Directions::Kept);
}

CommGraph alltoall_pattern(const PatternSpec& spec) {
  spec.allow_only({"ranks", "bytes"});
  const int tasks = static_cast<int>(spec.integer("ranks", 1, 1 << 24));
  const double bytes = spec.bytes("bytes");
  check_pattern_size(spec, "ranks", tasks, static_cast<long long>(tasks) * (tasks - 1));
  std::vector<CommEdge> edges;
  pairwise_alltoall({everyone(tasks), bytes, 1, edges});
  return CommGraph::from_directed_edges(tasks, edges, Directions::Kept);
}

// Rank = row x columns + column (MPI_Comm_split by row, keyed by column);
// the forward transform's two transposes: an alltoall of the local pencil
// within each row, then within each column.
CommGraph fft_pattern(const PatternSpec& spec) {
  spec.allow_only({"ranks", "grid", "bytes"});
  const std::vector<int> ranks = spec.sizes("ranks", 2, 2);
  const std::vector<int> grid = spec.sizes("grid", 3, 3);
  const double point_bytes = spec.bytes("bytes", 16);
  const int rows = ranks[0], columns = ranks[1];
  const long long tasks = static_cast<long long>(rows) * columns;
  check_pattern_size(spec, "ranks", tasks, tasks * (rows + columns));
  const double local = static_cast<double>(grid[0]) * grid[1] * grid[2] * point_bytes / tasks;
  return pencil_fft_graph(rows, columns, local);
}

}  // namespace tofa::patterns
