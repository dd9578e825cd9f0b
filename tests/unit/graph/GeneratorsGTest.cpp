// Synthetic graphs of graph/generators.hpp (stencil, Chung's benchmarks, NPB DT,
// halo exchange, pencil FFT, nearest neighbours, specs; the held-out family:
// random regular, small world, collectives, R-MAT, box stencils).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <set>
#include <utility>

#include "fixtures.hpp"
#include "graph/generators.hpp"

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

// DT class C's black hole: 64 sources -> 16 -> 4 comparators -> sink 84.
// A tree, so 84 arcs, each carrying 1728 * 8^4 samples x 4 doubles.
TEST(Generators, NpbDtBlackHoleIsAFourAryTreeIntoOneSink) {
  EXPECT_EQ(tofa::npb_dt_arc_bytes('S'), 1728 * 32.0);
  EXPECT_EQ(tofa::npb_dt_arc_bytes('C'), 1728 * 4096 * 32.0);
  const tofa::CommGraph bh = tofa::npb_dt_graph(tofa::DtGraph::BlackHole, 'C');
  ASSERT_EQ(bh.task_count(), 85);
  EXPECT_EQ(bh.edge_count(), 84u);
  EXPECT_EQ(degree(bh, 84), 4);  // the sink: comparators 80..83
  for (int source = 0; source < 64; ++source) EXPECT_EQ(degree(bh, source), 1) << source;
  for (int comparator = 64; comparator < 84; ++comparator)
    EXPECT_EQ(degree(bh, comparator), 5) << comparator;  // 4 in, 1 out
  EXPECT_EQ(bytes_between(bh, 5, 65), tofa::npb_dt_arc_bytes('C'));  // sources 4..7 -> 65
  EXPECT_EQ(bytes_between(bh, 79, 83), tofa::npb_dt_arc_bytes('C'));
  EXPECT_EQ(bytes_between(bh, 83, 84), tofa::npb_dt_arc_bytes('C'));
  const tofa::CommGraph b = tofa::npb_dt_graph(tofa::DtGraph::BlackHole, 'B');
  EXPECT_EQ(b.task_count(), 43);  // 32 + 8 + 2 + 1
  EXPECT_EQ(degree(b, 42), 2);
  EXPECT_EQ(tofa::npb_dt_graph(tofa::DtGraph::BlackHole, 'S').task_count(), 5);
}

// The white hole is the black hole with every id i renamed n-1-i: the
// source is task 0, the sinks the last 64.
TEST(Generators, NpbDtWhiteHoleMirrorsTheBlackHole) {
  const tofa::CommGraph bh = tofa::npb_dt_graph(tofa::DtGraph::BlackHole, 'C');
  const tofa::CommGraph wh = tofa::npb_dt_graph(tofa::DtGraph::WhiteHole, 'C');
  ASSERT_EQ(wh.task_count(), 85);
  EXPECT_EQ(degree(wh, 0), 4);
  for (int sink = 21; sink < 85; ++sink) EXPECT_EQ(degree(wh, sink), 1) << sink;
  for (const tofa::CommEdge& edge : bh.undirected_edges())
    EXPECT_EQ(bytes_between(wh, 84 - edge.from, 84 - edge.to), edge.bytes)
        << edge.from << "-" << edge.to;
}

// Class B's shuffle: 32 sources, 4 butterfly layers, 32 sinks = 192 tasks;
// node i of layer j+1 takes nodes i and i xor 2^j of layer j.
TEST(Generators, NpbDtShuffleIsAButterfly) {
  const tofa::CommGraph sh = tofa::npb_dt_graph(tofa::DtGraph::Shuffle, 'B');
  ASSERT_EQ(sh.task_count(), 192);
  EXPECT_EQ(sh.edge_count(), 2u * 32 * 5);
  for (int task = 0; task < 192; ++task)
    EXPECT_EQ(degree(sh, task), task < 32 || task >= 160 ? 2 : 4) << task;
  EXPECT_GT(bytes_between(sh, 5, 32 + 4), 0.0);          // layer 0, bit 0
  EXPECT_GT(bytes_between(sh, 64 + 5, 96 + 1), 0.0);      // layer 2, bit 2
  EXPECT_GT(bytes_between(sh, 128 + 21, 160 + 5), 0.0);   // into the sinks, bit 4
  EXPECT_EQ(bytes_between(sh, 5, 32 + 6), 0.0);
  EXPECT_EQ(tofa::npb_dt_graph(tofa::DtGraph::Shuffle, 'S').task_count(), 12);
  EXPECT_EQ(tofa_test::error_text([] { tofa::npb_dt_graph(tofa::DtGraph::Shuffle, 'E'); }),
            "unknown NPB DT class 'E': expected S, W, A, B, C or D");
}

// 4x4x4 tasks in a unit box: sides 0.25, cutoff 0.05, so a face carries
// 5 times an edge and 25 times a corner; every task has 26 partners.
TEST(Generators, HaloFacesOutweighEdgesOutweighCorners) {
  tofa::HaloExchange halo;
  const tofa::CommGraph graph = tofa::halo_exchange_graph(halo);
  ASSERT_EQ(graph.task_count(), 64);
  for (int task = 0; task < 64; ++task) EXPECT_EQ(degree(graph, task), 26) << task;
  const double face = bytes_between(graph, 0, 1);
  EXPECT_DOUBLE_EQ(face, 2 * halo.bytes_per_volume * 0.05 * 0.25 * 0.25);
  EXPECT_DOUBLE_EQ(face / bytes_between(graph, 0, 5), 5.0);    // (1,1,0): an edge
  EXPECT_DOUBLE_EQ(face / bytes_between(graph, 0, 21), 25.0);  // (1,1,1): a corner
  EXPECT_EQ(bytes_between(graph, 0, 3), face);                 // wraps round x
  EXPECT_EQ(bytes_between(graph, 0, 2), 0.0);                  // two away

  halo.box = {1.0, 2.0, 1.0};  // longer along y: x faces (0.5 x 0.25) twice y faces
  const tofa::CommGraph uneven = tofa::halo_exchange_graph(halo);
  EXPECT_DOUBLE_EQ(bytes_between(uneven, 0, 1) / bytes_between(uneven, 0, 4), 2.0);
}

// Staged (LAMMPS's swaps), 4x4x4 tasks, sides 0.25, cutoff 0.05: 6 partners;
// the x swap carries 0.05*0.25*0.25, the y swap 0.05*(0.25+0.1)*0.25, the z
// swap 0.05*0.35*0.35 each way.
TEST(Generators, StagedHaloSwapsWithFaceNeighboursOnly) {
  tofa::HaloExchange halo;
  halo.staged = true;
  const tofa::CommGraph graph = tofa::halo_exchange_graph(halo);
  for (int task = 0; task < 64; ++task) EXPECT_EQ(degree(graph, task), 6) << task;
  const double v = halo.bytes_per_volume;
  EXPECT_DOUBLE_EQ(bytes_between(graph, 0, 1), 2 * v * 0.05 * 0.25 * 0.25);
  EXPECT_DOUBLE_EQ(bytes_between(graph, 0, 4), 2 * v * 0.05 * 0.35 * 0.25);
  EXPECT_DOUBLE_EQ(bytes_between(graph, 0, 16), 2 * v * 0.05 * 0.35 * 0.35);
  EXPECT_EQ(bytes_between(graph, 0, 5), 0.0);  // an edge: forwarded, not sent

  halo.tasks = {2, 1, 4};  // x of 2: both swaps reach task 1; y of 1: nothing
  const tofa::CommGraph narrow = tofa::halo_exchange_graph(halo);
  EXPECT_DOUBLE_EQ(bytes_between(narrow, 0, 1), 2 * 2 * v * 0.05 * 1.0 * 0.25);
  EXPECT_DOUBLE_EQ(bytes_between(narrow, 0, 2), 2 * v * 0.05 * 0.6 * 1.1);
  EXPECT_EQ(degree(narrow, 0), 3);
}

TEST(Generators, HaloDensitiesAndAllreduce) {
  tofa::HaloExchange halo;
  halo.density_spread = 0.5;
  halo.allreduce_bytes = 8;
  const tofa::CommGraph graph = tofa::halo_exchange_graph(halo);
  const double nominal = 2 * halo.bytes_per_volume * 0.05 * 0.25 * 0.25;
  std::set<double> faces;
  for (int task : {1, 4, 16}) {
    const double face = bytes_between(graph, 0, task) - 16;  // 1, 4, 16: allreduce partners too
    EXPECT_GE(face, 0.5 * nominal);
    EXPECT_LE(face, 1.5 * nominal);
    faces.insert(face);
  }
  EXPECT_EQ(faces.size(), 3u);                    // uneven densities
  EXPECT_EQ(bytes_between(graph, 0, 32), 16.0);   // z two away: allreduce only
  EXPECT_EQ(bytes_between(graph, 0, 2), 16.0);
  halo.cutoff = 0.3;
  EXPECT_EQ(tofa_test::error_text([&] { tofa::halo_exchange_graph(halo); }),
            "halo exchange cutoff must be positive and at most every sub-domain side");
}

// 2 rows of 8: each task talks to the 7 others of its row (1/8 of its data
// each way) and the 1 other of its column (1/2 each way), to no one else.
TEST(Generators, PencilFftIsAllToAllInRowsAndColumns) {
  const tofa::CommGraph graph = tofa::pencil_fft_graph(2, 8, 64.0);
  EXPECT_EQ(graph.task_count(), 16);
  EXPECT_EQ(graph.edge_count(), 2u * 28 + 8);
  for (int task = 0; task < 16; ++task) EXPECT_EQ(degree(graph, task), 8) << task;
  EXPECT_EQ(bytes_between(graph, 0, 7), 16.0);
  EXPECT_EQ(bytes_between(graph, 3, 11), 64.0);
  EXPECT_EQ(bytes_between(graph, 0, 9), 0.0);
}

// Points on a line at 0, 0.1, 0.3, 0.7: with k = 1 a chain whose weights
// fall with the gaps; with k = 2 every pair but the two ends.
TEST(Generators, NearestNeighboursWeighLessFartherAway) {
  const std::vector<tofa::Point3> line = {{0, 0, 0}, {0.1, 0, 0}, {0.3, 0, 0}, {0.7, 0, 0}};
  const tofa::CommGraph chain = tofa::nearest_neighbour_graph(line, 1, 10.0, 0.1);
  EXPECT_EQ(chain.edge_count(), 3u);
  EXPECT_DOUBLE_EQ(bytes_between(chain, 0, 1), 5.0);  // 10 * 0.1 / (0.1 + 0.1)
  EXPECT_GT(bytes_between(chain, 1, 2), bytes_between(chain, 2, 3));
  const tofa::CommGraph two = tofa::nearest_neighbour_graph(line, 2, 10.0, 0.1);
  EXPECT_EQ(two.edge_count(), 5u);
  EXPECT_EQ(bytes_between(two, 0, 3), 0.0);
  EXPECT_EQ(tofa_test::error_text([&] { tofa::nearest_neighbour_graph(line, 4, 1.0, 1.0); }),
            "a nearest-neighbour graph needs 2 or more points, 1 <= k < points and positive "
            "bytes and scale");
}

// The cell search finds exactly the brute-force k nearest.
TEST(Generators, NearestNeighboursMatchABruteForceSearch) {
  std::mt19937 engine(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<tofa::Point3> points(400);
  for (auto& p : points) p = {unit(engine), unit(engine), 0.2 * unit(engine)};  // a flat slab
  const int k = 5;
  std::set<std::pair<int, int>> expected;
  for (int i = 0; i < 400; ++i) {
    std::vector<std::pair<double, int>> by_distance;
    for (int j = 0; j < 400; ++j)
      if (j != i)
        by_distance.push_back({std::hypot(points[i][0] - points[j][0], points[i][1] - points[j][1],
                                          points[i][2] - points[j][2]),
                               j});
    std::partial_sort(by_distance.begin(), by_distance.begin() + k, by_distance.end());
    for (int n = 0; n < k; ++n)
      expected.insert({std::min(i, by_distance[n].second), std::max(i, by_distance[n].second)});
  }
  std::set<std::pair<int, int>> found;
  const tofa::CommGraph graph = tofa::nearest_neighbour_graph(points, k, 1.0, 0.1);
  for (const tofa::CommEdge& edge : graph.undirected_edges()) found.insert({edge.from, edge.to});
  EXPECT_EQ(found, expected);
}

// Slab numbering: neighbours have nearby ids, until the ids are shuffled.
TEST(Generators, GeometricGraphIdsFollowTheGeometry) {
  const tofa::CommGraph graph = tofa::geometric_graph(1000, 6, 1.0, 3);
  ASSERT_EQ(graph.task_count(), 1000);
  for (int task = 0; task < 1000; ++task) EXPECT_GE(degree(graph, task), 6) << task;
  EXPECT_GE(graph.edge_count(), 3000u);
  EXPECT_LE(graph.edge_count(), 6000u);
  auto mean_id_gap = [](const tofa::CommGraph& g) {
    double sum = 0;
    const auto edges = g.undirected_edges();
    for (const tofa::CommEdge& edge : edges) sum += std::abs(edge.to - edge.from);
    return sum / edges.size();
  };
  EXPECT_LT(mean_id_gap(graph), 100.0);
  EXPECT_GT(mean_id_gap(tofa::with_shuffled_ids(graph, 1)), 250.0);
  EXPECT_EQ(tofa::geometric_graph(1000, 6, 1.0, 3).adjacency(), graph.adjacency());
}

// Every task has exactly `degree` distinct partners other than itself, and
// the seed decides the graph.
TEST(Generators, RandomRegularGraphIsSimpleAndRegular) {
  for (const auto& [tasks, k] : {std::pair{96, 4}, std::pair{15, 6}, std::pair{10, 9}}) {
    const tofa::CommGraph graph = tofa::random_regular_graph(tasks, k, 3.0, 101);
    ASSERT_EQ(graph.task_count(), tasks);
    EXPECT_EQ(graph.edge_count(), static_cast<std::size_t>(tasks) * k / 2) << tasks;
    for (int task = 0; task < tasks; ++task) {
      EXPECT_EQ(degree(graph, task), k) << "tasks = " << tasks << ", task = " << task;
      EXPECT_EQ(bytes_between(graph, task, task), 0.0) << task;
    }
    for (const tofa::CommEdge& edge : graph.undirected_edges()) EXPECT_EQ(edge.bytes, 6.0);
  }
  const tofa::CommGraph graph = tofa::random_regular_graph(96, 4, 1.0, 101);
  EXPECT_EQ(tofa::random_regular_graph(96, 4, 1.0, 101).adjacency(), graph.adjacency());
  EXPECT_NE(tofa::random_regular_graph(96, 4, 1.0, 102).adjacency(), graph.adjacency());
  EXPECT_EQ(tofa_test::error_text([] { tofa::random_regular_graph(9, 3, 1.0, 1); }),
            "a random regular graph needs 1 <= degree < tasks, tasks * degree even and positive "
            "bytes");
}

// Without rewiring a ring whose offset j weighs bytes / j each way; with it,
// the same number of edges and the same total bytes, some of them moved.
TEST(Generators, SmallWorldIsARingWithShortcuts) {
  const tofa::CommGraph ring = tofa::small_world_graph(20, 3, 0.0, 6.0, 5);
  EXPECT_EQ(ring.edge_count(), 60u);
  for (int task = 0; task < 20; ++task) EXPECT_EQ(degree(ring, task), 6) << task;
  EXPECT_EQ(bytes_between(ring, 0, 1), 12.0);
  EXPECT_EQ(bytes_between(ring, 0, 18), 6.0);  // offset 2 across the wrap
  EXPECT_EQ(bytes_between(ring, 5, 8), 4.0);
  EXPECT_EQ(bytes_between(ring, 0, 4), 0.0);
  const tofa::CommGraph world = tofa::small_world_graph(200, 3, 0.2, 6.0, 5);
  EXPECT_EQ(world.edge_count(), 600u);
  EXPECT_DOUBLE_EQ(world.total_bytes(), tofa::small_world_graph(200, 3, 0.0, 6.0, 5).total_bytes());
  int shortcuts = 0;
  for (const tofa::CommEdge& edge : world.undirected_edges()) {
    const int gap = std::abs(edge.to - edge.from);
    shortcuts += std::min(gap, 200 - gap) > 3;
  }
  EXPECT_GT(shortcuts, 60);  // ~20% of 600, each moved to a random task
  EXPECT_LT(shortcuts, 180);
  EXPECT_EQ(tofa_test::error_text([] { tofa::small_world_graph(6, 3, 0.1, 1.0, 1); }),
            "a small-world graph needs 1 <= reach, 2 * reach < tasks, rewire in [0, 1] and "
            "positive bytes");
}

// 6 ranks: the binomial tree 0-1, 0-2, 1-3, 0-4, 1-5 (each rank's parent is
// itself without its highest bit), both ways; the ring 0-1-2-3-4-5-0, one way.
TEST(Generators, CollectivesAreABinomialTreeAndARing) {
  const tofa::CommGraph graph = tofa::collectives_graph(6, 10.0, 1.0);
  EXPECT_EQ(bytes_between(graph, 0, 1), 21.0);  // tree both ways, ring one way
  EXPECT_EQ(bytes_between(graph, 0, 2), 20.0);
  EXPECT_EQ(bytes_between(graph, 1, 3), 20.0);
  EXPECT_EQ(bytes_between(graph, 0, 4), 20.0);
  EXPECT_EQ(bytes_between(graph, 1, 5), 20.0);
  EXPECT_EQ(bytes_between(graph, 2, 3), 1.0);
  EXPECT_EQ(bytes_between(graph, 5, 0), 1.0);
  EXPECT_EQ(bytes_between(graph, 2, 4), 0.0);
  EXPECT_EQ(graph.edge_count(), 5u + 6 - 1);  // 0-1 in both
  EXPECT_EQ(degree(tofa::collectives_graph(100, 1.0, 0.0), 0), 7);  // 1, 2, 4, ..., 64
  EXPECT_EQ(tofa_test::error_text([] { tofa::collectives_graph(4, 0.0, 0.0); }),
            "a collectives graph needs 2 or more tasks and bytes >= 0, not both 0");
}

// R-MAT with Graph500's a = 0.57: ids with few set bits are hubs; repeated
// edges add up.
TEST(Generators, RmatDegreesAndWeightsAreSkewed) {
  const tofa::CommGraph graph = tofa::rmat_graph(8, 8, 0.57, 0.19, 0.19, 1.0, 7);
  ASSERT_EQ(graph.task_count(), 256);
  EXPECT_LE(graph.total_bytes(), 2.0 * 8 * 256);  // self loops dropped
  EXPECT_GT(graph.total_bytes(), 2.0 * 7 * 256);
  int tail = 0;  // tasks of 6 or more set bits: each a 0.24 chance per level
  for (int task = 0; task < 256; ++task)
    if (__builtin_popcount(task) >= 6) tail = std::max(tail, degree(graph, task));
  EXPECT_GT(degree(graph, 0), 10 * tail);
  double heaviest = 0;
  for (const tofa::CommEdge& edge : graph.undirected_edges()) {
    EXPECT_NE(edge.from, edge.to);
    heaviest = std::max(heaviest, edge.bytes);
  }
  EXPECT_GE(heaviest, 4.0);  // some pair drawn at least twice
  EXPECT_EQ(tofa::rmat_graph(8, 8, 0.57, 0.19, 0.19, 1.0, 7).adjacency(), graph.adjacency());
  EXPECT_EQ(tofa_test::error_text([] { tofa::rmat_graph(4, 2, 0.5, 0.3, 0.2, 1.0, 1); }),
            "an R-MAT graph needs 1 <= scale <= 20, edge_factor >= 1, a, b, c >= 0 with "
            "a + b + c < 1 and positive bytes");
}

// Without diagonals and wrap it is stencil_graph; in 2D with diagonals a
// 9-point stencil; periodic 8x8x8 is the 8x8x8 torus's own graph.
TEST(Generators, BoxStencilsWithDiagonalsAndWrap) {
  EXPECT_EQ(tofa::box_stencil_graph({5, 3, 2}, 2.0, 0.0, false).adjacency(),
            tofa::stencil_graph({5, 3, 2}, 2.0).adjacency());
  const tofa::CommGraph nine = tofa::box_stencil_graph({6, 4}, 8.0, 0.25, false);
  EXPECT_EQ(degree(nine, 7), 8);  // (1, 1): inside
  EXPECT_EQ(degree(nine, 0), 3);  // a corner
  EXPECT_EQ(bytes_between(nine, 7, 8), 16.0);
  EXPECT_EQ(bytes_between(nine, 7, 14), 4.0);  // (2, 2): a diagonal
  EXPECT_EQ(bytes_between(nine, 0, 5), 0.0);   // no wrap
  const tofa::CommGraph torus = tofa::box_stencil_graph({8, 8, 8}, 1.0, 0.0, true);
  EXPECT_EQ(torus.edge_count(), 3u * 512);
  for (int task = 0; task < 512; ++task) EXPECT_EQ(degree(torus, task), 6) << task;
  EXPECT_EQ(bytes_between(torus, 0, 7), 2.0);    // x wraps
  EXPECT_EQ(bytes_between(torus, 0, 448), 2.0);  // z wraps
  const tofa::CommGraph cube = tofa::box_stencil_graph({3, 3, 3}, 4.0, 0.5, true);
  for (int task = 0; task < 27; ++task) EXPECT_EQ(degree(cube, task), 26) << task;
  EXPECT_EQ(bytes_between(cube, 0, 26), 2 * 4.0 * 0.25);  // (2, 2, 2): a corner across the wrap
  const tofa::CommGraph two = tofa::box_stencil_graph({2, 5}, 1.0, 0.0, true);
  EXPECT_EQ(bytes_between(two, 0, 1), 4.0);  // +1 and -1 reach the same task
  EXPECT_EQ(degree(tofa::box_stencil_graph({1, 5}, 1.0, 1.0, true), 0), 2);
  EXPECT_EQ(tofa_test::error_text([] { tofa::box_stencil_graph({4, 0}, 1.0, 0.0, false); }),
            "a box stencil needs 1 to 3 positive dimensions of at most 2^24 tasks, positive bytes "
            "and a diagonal share in [0, 1]");
}

TEST(Generators, SpecsAndTheirErrors) {
  EXPECT_EQ(tofa::graph_from_spec("stencil:2x2x2:3").total_bytes(), 12 * 6.0);
  EXPECT_TRUE(tofa::is_graph_spec("stencil:4"));
  EXPECT_FALSE(tofa::is_graph_spec("comm.mat"));
  const std::string expected =
      "': expected 'stencil:AxBxC' with optional ':BYTES', or 'geometric:TASKS' with optional "
      "':K' (1 to 64), or 'pattern:SPEC'";
  EXPECT_EQ(tofa_test::error_text([] { tofa::graph_from_spec("stencil:2xq"); }),
            "bad graph spec 'stencil:2xq" + expected);
  EXPECT_TRUE(tofa::is_graph_spec("geometric:100"));
  EXPECT_EQ(tofa::graph_from_spec("geometric:1000").adjacency(),
            tofa::with_shuffled_ids(tofa::geometric_graph(1000, 6, 1.0, 7), 19).adjacency());
  EXPECT_EQ(tofa::graph_from_spec("geometric:50:3").adjacency(),
            tofa::with_shuffled_ids(tofa::geometric_graph(50, 3, 1.0, 7), 19).adjacency());
  for (const char* bad : {"geometric:1", "geometric:10:0", "geometric:10:65", "geometric:10x3",
                          "geometric:", "geometric:5:2:1"})
    EXPECT_EQ(tofa_test::error_text([&] { tofa::graph_from_spec(bad); }),
              "bad graph spec '" + std::string(bad) + expected)
        << bad;
  EXPECT_EQ(tofa_test::error_text([] { tofa::power_law_graph(1); }),
            "a power-law graph needs at least 2 tasks");
}

}  // namespace
