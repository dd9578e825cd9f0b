// Graphs of graph/patterns: each pattern's bytes worked out by hand for a
// small case, and the spec errors that name the column.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/error.hpp"
#include "graph/patterns/patterns.hpp"

namespace {

/// The value of `values` (bytes() or messages()) for the pair {a, b}; 0 without one.
double between(const tofa::CommGraph& graph, const std::vector<double>& values, int a, int b) {
  for (auto k = graph.offsets()[a]; k < graph.offsets()[a + 1]; ++k)
    if (graph.adjacency()[k] == b) return values[k];
  return 0;
}
double bytes_between(const tofa::CommGraph& g, int a, int b) { return between(g, g.bytes(), a, b); }
double messages_between(const tofa::CommGraph& g, int a, int b) { return between(g, g.messages(), a, b); }

std::string error_of(const std::string& spec) {
  try {
    tofa::pattern_graph(spec);
  } catch (const tofa::Error& e) {
    return e.what();
  }
  return "no error";
}

// 3x3 periodic, rank = row * 3 + column (MPI_Cart_create). A face along
// dimension 0 holds 20 cells, along dimension 1 10 cells, 8 bytes each; on a
// ring of 3 a rank's two neighbours differ, so each pair gets one message
// each way.
TEST(Patterns, HaloTwoDimensionalPeriodic) {
  const tofa::CommGraph g = tofa::pattern_graph("halo:ranks=3x3,cells=10x20");
  EXPECT_EQ(g.task_count(), 9);
  EXPECT_EQ(g.edge_count(), 18u);
  EXPECT_EQ(bytes_between(g, 0, 3), 2 * 20 * 8.0);
  EXPECT_EQ(bytes_between(g, 0, 6), 2 * 20 * 8.0);
  EXPECT_EQ(bytes_between(g, 0, 1), 2 * 10 * 8.0);
  EXPECT_EQ(bytes_between(g, 0, 2), 2 * 10 * 8.0);
  EXPECT_EQ(bytes_between(g, 0, 4), 0.0);
  EXPECT_EQ(messages_between(g, 0, 3), 2.0);
}

TEST(Patterns, HaloWithoutPeriodicityAndWiderGhosts) {
  const tofa::CommGraph g = tofa::pattern_graph("halo:ranks=3,cells=100,periodic=no,width=2,bytes=4");
  EXPECT_EQ(g.edge_count(), 2u);
  EXPECT_EQ(bytes_between(g, 0, 1), 2 * 2 * 4.0);
  EXPECT_EQ(bytes_between(g, 0, 2), 0.0);
}

// Two ranks on a periodic ring: the left and the right neighbour are the
// same rank, so both messages go to it.
TEST(Patterns, HaloOfTwoRanksSendsBothFacesToTheOther) {
  const tofa::CommGraph g = tofa::pattern_graph("halo:ranks=2,cells=5");
  EXPECT_EQ(bytes_between(g, 0, 1), 4 * 8.0);
  EXPECT_EQ(messages_between(g, 0, 1), 4.0);
  EXPECT_EQ(tofa::pattern_graph("halo:ranks=1x4,cells=3x3").edge_count(), 4u);
}

// Each of 4 ranks sends 2 x 3 chunks of 4096 / 4 bytes to the next.
TEST(Patterns, RingAllreduce) {
  const tofa::CommGraph g = tofa::pattern_graph("allreduce:ranks=4,bytes=4K");
  EXPECT_EQ(g.edge_count(), 4u);
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(bytes_between(g, r, (r + 1) % 4), 6 * 1024.0);
    EXPECT_EQ(messages_between(g, r, (r + 1) % 4), 6.0);
  }
}

// libtofaprof's own example: p = 6 folds 0 into 1 and 2 into 3, the four
// active ranks 1, 3, 4, 5 exchange at distance 1 and 2, then unfold.
TEST(Patterns, RecursiveDoublingAllreduceAsTheProfilerRecordsIt) {
  const tofa::CommGraph g =
      tofa::pattern_graph("allreduce:ranks=6,bytes=100,algorithm=recursive-doubling");
  EXPECT_EQ(g.edge_count(), 6u);
  for (auto [a, b] : {std::pair{0, 1}, {2, 3}, {1, 3}, {4, 5}, {1, 4}, {3, 5}})
    EXPECT_EQ(bytes_between(g, a, b), 200.0) << a << "-" << b;
}

TEST(Patterns, BinomialBroadcastAndAllreduce) {
  const tofa::CommGraph g = tofa::pattern_graph("bcast:ranks=8,bytes=1M");
  EXPECT_EQ(g.edge_count(), 7u);
  for (auto [a, b] : {std::pair{0, 4}, {0, 2}, {0, 1}, {2, 3}, {4, 6}, {4, 5}, {6, 7}})
    EXPECT_EQ(bytes_between(g, a, b), 1 << 20) << a << "-" << b;
  // Root 3 of 4: relative ranks 0..3 are 3, 0, 1, 2.
  const tofa::CommGraph rooted = tofa::pattern_graph("bcast:ranks=4,bytes=1,root=3");
  EXPECT_EQ(rooted.edge_count(), 3u);
  EXPECT_EQ(bytes_between(rooted, 3, 0) + bytes_between(rooted, 3, 1) + bytes_between(rooted, 1, 2), 3.0);
  // Reduce up the same tree, then broadcast down: each tree edge twice.
  const tofa::CommGraph all = tofa::pattern_graph("allreduce:ranks=8,bytes=1,algorithm=binomial");
  EXPECT_EQ(all.edge_count(), 7u);
  EXPECT_EQ(bytes_between(all, 4, 6), 2.0);
  EXPECT_EQ(tofa::pattern_graph("bcast:ranks=5,bytes=1,algorithm=linear").edge_count(), 4u);
  const tofa::CommGraph chain = tofa::pattern_graph("bcast:ranks=5,bytes=1,algorithm=pipeline,root=2");
  EXPECT_EQ(chain.edge_count(), 4u);
  EXPECT_EQ(bytes_between(chain, 4, 0), 1.0);
  EXPECT_EQ(bytes_between(chain, 1, 2), 0.0);
}

TEST(Patterns, AlltoallAndPencilFft) {
  const tofa::CommGraph all = tofa::pattern_graph("alltoall:ranks=3,bytes=10");
  EXPECT_EQ(all.edge_count(), 3u);
  EXPECT_EQ(bytes_between(all, 0, 2), 20.0);
  // 2 rows x 3 columns, 6^3 points of 16 bytes: 576 bytes per rank; a row
  // transpose sends a third of it to each other member of the row, a column
  // transpose half to the other member of the column.
  const tofa::CommGraph fft = tofa::pattern_graph("fft:ranks=2x3,grid=6x6x6");
  EXPECT_EQ(bytes_between(fft, 0, 1), 2 * 192.0);
  EXPECT_EQ(bytes_between(fft, 0, 3), 2 * 288.0);
  EXPECT_EQ(bytes_between(fft, 0, 4), 0.0);
}

// tp = pp = dp = 2, 4 layers, hidden 64, sequence 16, one micro-batch of 1,
// bf16: an activation is 16 x 64 x 2 = 2048 bytes. Rank = t + 2 (d + 2 s).
// Tensor pair {0,1}: 4 all-reduces per layer x 2 layers per stage, a ring of
// 2 sends 2048 each way per all-reduce. Pipeline pair {0,4}: 2048 each way.
// Data pair {0,2}: params 12 x 4 x 64^2 = 196608 over tp x pp = 4, 2 bytes:
// 98304 each way.
TEST(Patterns, TrainingInMegatronRankOrder) {
  const tofa::CommGraph g =
      tofa::pattern_graph("training:tp=2,pp=2,dp=2,layers=4,hidden=64,seq=16");
  EXPECT_EQ(g.task_count(), 8);
  EXPECT_EQ(g.edge_count(), 12u);
  EXPECT_EQ(bytes_between(g, 0, 1), 2 * 8 * 2048.0);
  EXPECT_EQ(bytes_between(g, 0, 4), 2 * 2048.0);
  EXPECT_EQ(bytes_between(g, 0, 2), 2 * 98304.0);
  EXPECT_EQ(bytes_between(g, 0, 3), 0.0);
  // Explicit parameters, fp32 and 4 micro-batches change only their parts.
  const tofa::CommGraph h = tofa::pattern_graph(
      "training:tp=2,pp=2,dp=2,layers=4,hidden=64,seq=16,params=4000,dtype=fp32,microbatches=4");
  EXPECT_EQ(bytes_between(h, 0, 1), 2 * 32 * 4096.0);
  EXPECT_EQ(bytes_between(h, 0, 4), 2 * 4 * 4096.0);
  EXPECT_EQ(bytes_between(h, 0, 2), 2 * 4000.0);
}

TEST(Patterns, ErrorsNameTheColumnAndWhatWasExpected) {
  EXPECT_EQ(error_of("halo:ranks=4x4,cells=8"),
            "bad pattern 'halo:ranks=4x4,cells=8' at column 16: cells=8: expected 2 positive "
            "sizes joined by 'x', such as 64x32");
  EXPECT_EQ(error_of("halo:ranks=4,cels=3"),
            "bad pattern 'halo:ranks=4,cels=3' at column 14: unknown key 'cels' for halo (keys: "
            "ranks, cells, periodic, width, bytes)");
  EXPECT_EQ(error_of("allreduce:ranks=4"),
            "bad pattern 'allreduce:ranks=4' at column 18: allreduce needs bytes=...");
  EXPECT_NE(error_of("allreduce:ranks=4,bytes=2X").find("column 19: bytes=2X: expected a size"),
            std::string::npos);
  EXPECT_NE(error_of("allreduce:ranks=4,ranks=5,bytes=1").find("column 19: 'ranks' given twice"),
            std::string::npos);
  EXPECT_NE(error_of("bcast:ranks=4,bytes=1,root=4").find("root=4: expected a whole number from 0 to 3"),
            std::string::npos);
  EXPECT_NE(error_of("ring:ranks=4").find("column 1: unknown pattern 'ring' (patterns: halo,"),
            std::string::npos);
  EXPECT_NE(error_of("halo:ranks=4,,cells=4").find("column 14: expected KEY=VALUE, found ''"),
            std::string::npos);
  EXPECT_NE(error_of("training:pp=3,layers=4,hidden=8,seq=8").find("layers=4: not a multiple of pp=3"),
            std::string::npos);
  EXPECT_NE(error_of("alltoall:ranks=20000,bytes=1").find("more than 67108864"), std::string::npos);
  EXPECT_NE(error_of(":ranks=1").find("column 1: expected a pattern name"), std::string::npos);
}

TEST(Patterns, EveryRegisteredPatternHasAUsageLine) {
  ASSERT_EQ(tofa::pattern_kinds().size(), 6u);
  for (const tofa::PatternKind& kind : tofa::pattern_kinds())
    EXPECT_EQ(std::string(kind.usage).rfind(std::string(kind.name) + ":", 0), 0u) << kind.name;
}

}  // namespace
