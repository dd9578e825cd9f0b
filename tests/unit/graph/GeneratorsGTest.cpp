// Synthetic graphs of tofa/generators.hpp (stencil, Chung's benchmarks, specs).
#include <gtest/gtest.h>

#include <algorithm>

#include "fixtures.hpp"
#include "tofa/generators.hpp"

namespace {

double bytes_between(const tofa::CommGraph& graph, int a, int b) {
  for (auto k = graph.offsets()[a]; k < graph.offsets()[a + 1]; ++k)
    if (graph.adjacency()[k] == b) return graph.bytes()[k];
  return 0;
}

int degree(const tofa::CommGraph& graph, int task) {
  return static_cast<int>(graph.offsets()[task + 1] - graph.offsets()[task]);
}

// A 3x2 grid: 2 edges per row of 3 (x2 rows) + 3 vertical = 7 edges; each
// is sent both ways, so it weighs 2 * bytes.
TEST(Generators, StencilHasTheGridEdgesBothWays) {
  const tofa::CommGraph graph = tofa::stencil_graph({3, 2}, 5.0);
  EXPECT_EQ(graph.task_count(), 6);
  EXPECT_EQ(graph.edge_count(), 7u);
  EXPECT_EQ(bytes_between(graph, 0, 1), 10.0);
  EXPECT_EQ(bytes_between(graph, 1, 4), 10.0);
  EXPECT_EQ(bytes_between(graph, 0, 4), 0.0);
}

// 3 rows of 4: every row is a clique (6 pairs x 3 rows = 18 edges) and each
// column a chain (2 x 4 = 8 edges). Task 5 = (row 1, column 1).
TEST(Generators, ChungMeshRowsAreCliquesColumnsAreChains) {
  const tofa::CommGraph graph = tofa::chung_mesh_graph(3, 4, 4.0, 1.0);
  EXPECT_EQ(graph.edge_count(), 26u);
  EXPECT_EQ(degree(graph, 5), 5);              // 4, 6, 7 in its row; 1, 9 in its column
  EXPECT_EQ(bytes_between(graph, 5, 7), 8.0);  // row partners: 4 each way
  EXPECT_EQ(bytes_between(graph, 5, 9), 2.0);  // column neighbours: 1 each way
  EXPECT_EQ(bytes_between(graph, 5, 10), 0.0);
}

// Degrees fall with the task id as n*(i+1)^-0.6: task 0 talks to nearly
// everyone, the last tasks to few; the graph is the same for the same seed.
TEST(Generators, PowerLawDegreesFallWithTheTaskId) {
  const tofa::CommGraph graph = tofa::power_law_graph(200, 0.6, 1.0, 9);
  EXPECT_GT(degree(graph, 0), 100);
  int tail = 0;
  for (int task = 150; task < 200; ++task) tail = std::max(tail, degree(graph, task));
  EXPECT_LT(tail, degree(graph, 0) / 2);
  EXPECT_EQ(bytes_between(graph, 0, 0), 0.0);  // no self loops
  const tofa::CommGraph again = tofa::power_law_graph(200, 0.6, 1.0, 9);
  EXPECT_EQ(again.adjacency(), graph.adjacency());
  EXPECT_NE(tofa::power_law_graph(200, 0.6, 1.0, 10).adjacency(), graph.adjacency());
}

TEST(Generators, SpecsAndTheirErrors) {
  EXPECT_EQ(tofa::graph_from_spec("stencil:2x2x2:3").total_bytes(), 12 * 6.0);
  EXPECT_TRUE(tofa::is_graph_spec("stencil:4"));
  EXPECT_FALSE(tofa::is_graph_spec("comm.mat"));
  EXPECT_EQ(tofa_test::error_text([] { tofa::graph_from_spec("stencil:2xq"); }),
            "bad graph spec 'stencil:2xq': expected 'stencil:AxBxC' with optional ':BYTES'");
  EXPECT_EQ(tofa_test::error_text([] { tofa::power_law_graph(1); }),
            "a power-law graph needs at least 2 tasks");
}

}  // namespace
