// Per-job stream metrics: Bunde's shapes and skip rule, block layout, the
// library's metrics, and the completion-time proxy's defining properties.
#include <gtest/gtest.h>

#include "fixtures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "faults/faults.hpp"
#include "harness/stream/stream_metrics.hpp"
#include "metrics/metrics.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::harness::bunde_shape;
using tofa::harness::ShapeSkip;

TEST(StreamMetrics, BundeShapeIsTheSquarestDivisorPair) {
  for (int p = 1; p <= 600; ++p) {
    const tofa::harness::JobShape shape = bunde_shape(p);
    EXPECT_EQ(shape.x * shape.y, p) << "p = " << p;
    EXPECT_LE(shape.x, shape.y) << "p = " << p;
    // No divisor of p lies between x and sqrt(p).
    for (int d = shape.x + 1; d * d <= p; ++d) {
      EXPECT_NE(p % d, 0) << "p = " << p << ", d = " << d;
    }
  }
  EXPECT_THROW(bunde_shape(0), tofa::Error);
}

TEST(StreamMetrics, SkipsSerialAndTooLongJobs) {
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:8x8");
  EXPECT_EQ(tofa::harness::bunde_skip(1, mesh), ShapeSkip::Serial);
  EXPECT_EQ(tofa::harness::bunde_skip(64, mesh), ShapeSkip::None);    // 8x8
  EXPECT_EQ(tofa::harness::bunde_skip(13, mesh), ShapeSkip::LargerThanMachine);  // 1x13
  EXPECT_EQ(tofa::harness::bunde_skip(24, mesh), ShapeSkip::None);    // 4x6
  EXPECT_EQ(tofa::harness::bunde_skip(18, mesh), ShapeSkip::None);    // 3x6
  EXPECT_EQ(tofa::harness::bunde_skip(22, mesh), ShapeSkip::LargerThanMachine);  // 2x11
}

TEST(StreamMetrics, StencilGraphHasTheShapesEdges) {
  const tofa::CommGraph graph = tofa::harness::bunde_stencil_graph(12);  // 3x4
  EXPECT_EQ(graph.task_count(), 12);
  EXPECT_EQ(graph.edge_count(), static_cast<std::size_t>(2 * 4 + 3 * 3));
}

TEST(StreamMetrics, BlockLayoutKeepsNodesAndTheirCounts) {
  const std::vector<int> task_nodes = {5, 2, 5, 9, 2, 5};
  const std::vector<int> block = tofa::harness::block_layout(task_nodes);
  EXPECT_EQ(block, (std::vector<int>{5, 5, 5, 2, 2, 9}));
}

TEST(StreamMetrics, JobMetricsComeFromTheLibrary) {
  const tofa::Topology torus = tofa::Topology::from_spec("torus:4x4");
  const tofa::CommGraph graph = tofa::harness::bunde_stencil_graph(8);  // 2x4
  // Two tasks per node, interleaved (block layout would pair 0-1, 2-3, ...).
  const std::vector<int> placed = {0, 5, 0, 5, 10, 12, 10, 12};
  std::vector<double> outage(16, 0.0);
  outage[5] = 0.1;
  outage[12] = 0.2;
  const tofa::harness::JobMetrics metrics =
      tofa::harness::job_metrics(1000, graph, torus, placed, outage);
  const tofa::PlacementMetrics library = tofa::evaluate_placement(graph, torus, placed, outage);
  EXPECT_DOUBLE_EQ(metrics.hop_bytes, library.hop_bytes);
  EXPECT_DOUBLE_EQ(metrics.average_hops, library.average_hops);
  EXPECT_DOUBLE_EQ(metrics.abort_probability,
                   tofa::expected_abort_probability(torus, graph, placed, outage));
  EXPECT_DOUBLE_EQ(metrics.block_hop_bytes,
                   tofa::evaluate_placement(graph, torus, tofa::harness::block_layout(placed))
                       .hop_bytes);
  const double expected = 1000 *
                          (1 + 0.3 * (metrics.hop_bytes / metrics.block_hop_bytes - 1)) /
                          (1 - metrics.abort_probability);
  EXPECT_DOUBLE_EQ(metrics.expected_completion, expected);
}

TEST(StreamMetrics, BlockPlacementWithoutOutagesCompletesInItsRuntime) {
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:8x8");
  const tofa::CommGraph graph = tofa::harness::bunde_stencil_graph(16);
  std::vector<int> block(16);
  for (int t = 0; t < 16; ++t) block[t] = 3 * t;
  const tofa::harness::JobMetrics metrics = tofa::harness::job_metrics(500, graph, mesh, block);
  EXPECT_EQ(metrics.abort_probability, 0);
  EXPECT_EQ(metrics.hop_bytes, metrics.block_hop_bytes);
  EXPECT_DOUBLE_EQ(metrics.expected_completion, 500);
  // Certain abort: never completes.
  const tofa::harness::JobMetrics doomed =
      tofa::harness::job_metrics(500, graph, mesh, block, std::vector<double>(64, 1.0));
  EXPECT_TRUE(std::isinf(doomed.expected_completion));
}

}  // namespace
