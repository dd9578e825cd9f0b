// The batch arithmetic of tofa-sim batch: aborted runs, re-runs and their
// cost, worked out by hand from the draws listed below.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "base/error.hpp"
#include "graph/graph.hpp"
#include "sim/batch_model.hpp"
#include "sim/failure_draw.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::sim::AbortCost;
using tofa::sim::BatchDraw;

// Ring of 8, tasks on n0 and n3: the job uses n0 n1 n2 n3 (R(0,3) and
// R(3,0)). N_f = {n2, n5} at p_f = 0.5: a run aborts exactly when n2 fails.
//
// Batch seed 42 gives instance seeds (outputs of mt19937_64(42))
//   13930160852258120406, 11788048577503494824, 13874630024467741450,
// and the instances' streams start (draw_unit, 4 digits):
//   instance 0: 0.3806 0.3007 | 0.3425 0.2705 | 0.6446 0.8718 | 0.6866 0.8253
//   instance 1: 0.7477 0.3150 | ...
//   instance 2: 0.7172 0.4388 | ...
// Each run takes one draw for n2, then one for n5:
//   instance 0: run 0 (n2 0.3806 < 0.5: abort), run 1 (n2 0.3425: abort),
//               run 2 (n2 0.6446, n5 0.8718: completes): 2 aborts;
//   instance 1: run 0 (n2 0.7477; n5 0.3150 fails but is unused): completes;
//   instance 2: run 0 (n2 0.7172; n5 0.4388 fails, unused): completes.
constexpr std::uint64_t kSeed = 42;
constexpr double kTime = 2.0;  // the fault-free run

std::vector<char> ring_job_nodes() {
  const tofa::Topology ring = tofa::Topology::from_spec("torus:8");
  const tofa::CommGraph pair = tofa::CommGraph::from_directed_edges(2, {{0, 1, 4096, 1}});
  return tofa::sim::nodes_in_use(ring, pair, {0, 3});
}

BatchDraw ring_batch() { return tofa::sim::draw_batch_on({5, 2}, 0.5, 3, kSeed); }

TEST(BatchModel, GivenOutageNodesKeepTheSeedsAndFirstDraws) {
  const BatchDraw batch = ring_batch();
  EXPECT_EQ(batch.outage_nodes, (std::vector<int>{2, 5}));
  EXPECT_EQ(batch.instance_seeds,
            (std::vector<std::uint64_t>{13930160852258120406ULL, 11788048577503494824ULL,
                                        13874630024467741450ULL}));
  EXPECT_EQ(batch.failed, (std::vector<std::vector<int>>{{2, 5}, {5}, {5}}));
  EXPECT_THROW(tofa::sim::draw_batch_on({2, 2}, 0.5, 3, kSeed), tofa::Error);
  EXPECT_THROW(tofa::sim::draw_batch_on({2}, 1.5, 3, kSeed), tofa::Error);
}

TEST(BatchModel, AbortedRunsCostAWholeRunAndAreRerunWithNewDraws) {
  const auto outcome =
      tofa::sim::run_batch(ring_batch(), 0.5, ring_job_nodes(), kTime, AbortCost::Full, 100);
  ASSERT_EQ(outcome.instance.size(), 3u);
  EXPECT_EQ(outcome.instance[0].aborts, 2);
  EXPECT_EQ(outcome.instance[0].causes, (std::vector<int>{2, 2}));
  EXPECT_DOUBLE_EQ(outcome.instance[0].time, 3 * kTime);
  EXPECT_EQ(outcome.instance[1].aborts, 0);
  EXPECT_DOUBLE_EQ(outcome.instance[1].time, kTime);
  EXPECT_EQ(outcome.instance[2].aborts, 0);
  EXPECT_EQ(outcome.runs, 5);
  EXPECT_EQ(outcome.aborts, 2);
  EXPECT_EQ(outcome.aborted_instances, 1);
  EXPECT_DOUBLE_EQ(outcome.abort_ratio(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(outcome.completion_time, 5 * kTime);
  EXPECT_EQ(outcome.seed, kSeed);
}

TEST(BatchModel, UniformAbortCostsTheDrawnFractionOfARun) {
  // Instance 0 with the abort point drawn after each aborted run's failures:
  // run 0 aborts (n2 0.3806, n5 0.3007), U = 0.3425; run 1 draws n2 0.2705:
  // aborts, n5 0.6446, U = 0.8718; run 2 (n2 0.6866, n5 0.8253) completes.
  const auto outcome =
      tofa::sim::run_batch(ring_batch(), 0.5, ring_job_nodes(), kTime, AbortCost::Uniform, 100);
  EXPECT_EQ(outcome.instance[0].aborts, 2);
  EXPECT_NEAR(outcome.instance[0].time, kTime * (0.3425 + 0.8718 + 1), 1e-3);
  EXPECT_NEAR(outcome.completion_time, kTime * (0.3425 + 0.8718 + 3), 1e-3);
}

TEST(BatchModel, AbortAtTheStartCostsNothing) {
  const auto outcome =
      tofa::sim::run_batch(ring_batch(), 0.5, ring_job_nodes(), kTime, AbortCost::Start, 100);
  EXPECT_EQ(outcome.aborts, 2);
  EXPECT_DOUBLE_EQ(outcome.completion_time, 3 * kTime);
}

TEST(BatchModel, NoOutageNodesGiveInstancesTimesTheRun) {
  const BatchDraw batch = tofa::sim::draw_batch(8, {0, 0.02}, 100, 7);
  const auto outcome =
      tofa::sim::run_batch(batch, 0.02, ring_job_nodes(), kTime, AbortCost::Full, 100);
  EXPECT_EQ(outcome.runs, 100);
  EXPECT_EQ(outcome.aborted_instances, 0);
  EXPECT_DOUBLE_EQ(outcome.completion_time, 100 * kTime);
}

TEST(BatchModel, ACertainFailureOnTheJobNeverEnds) {
  const BatchDraw batch = tofa::sim::draw_batch_on({1}, 1.0, 2, kSeed);
  EXPECT_THROW(tofa::sim::run_batch(batch, 1.0, ring_job_nodes(), kTime, AbortCost::Full, 50),
               tofa::Error);
  // A certain failure off the job's nodes and routes changes nothing.
  const BatchDraw off = tofa::sim::draw_batch_on({6}, 1.0, 2, kSeed);
  EXPECT_DOUBLE_EQ(
      tofa::sim::run_batch(off, 1.0, ring_job_nodes(), kTime, AbortCost::Full, 50).completion_time,
      2 * kTime);
}

TEST(BatchModel, AbortRatioCountsTheFirstRunsLikeTheFailureCount) {
  // 16 of 64 nodes at p_f = 0.3: the instances with an aborted run are the
  // ones whose first draw (the batch's failed[k]) aborts.
  const tofa::Topology torus = tofa::Topology::from_spec("torus:4x4x4");
  const tofa::CommGraph pair = tofa::CommGraph::from_directed_edges(2, {{0, 1, 4096, 1}});
  const std::vector<char> in_use = tofa::sim::nodes_in_use(torus, pair, {0, 42});
  const BatchDraw batch = tofa::sim::draw_batch(64, {16, 0.3}, 200, 99);
  int first_run_aborts = 0;
  for (const auto& failed : batch.failed)
    first_run_aborts += tofa::sim::instance_aborts(in_use, failed);
  const auto outcome = tofa::sim::run_batch(batch, 0.3, in_use, kTime, AbortCost::Full, 1000);
  EXPECT_EQ(outcome.aborted_instances, first_run_aborts);
  EXPECT_GT(first_run_aborts, 0);
  EXPECT_GE(outcome.aborts, first_run_aborts);
  EXPECT_DOUBLE_EQ(outcome.completion_time, static_cast<double>(outcome.runs) * kTime);
}

TEST(BatchModel, AbortCostNames) {
  EXPECT_EQ(tofa::sim::parse_abort_cost("full"), AbortCost::Full);
  EXPECT_EQ(tofa::sim::parse_abort_cost("uniform"), AbortCost::Uniform);
  EXPECT_EQ(tofa::sim::parse_abort_cost("start"), AbortCost::Start);
  EXPECT_EQ(tofa::sim::abort_cost_name(AbortCost::Uniform), "uniform");
  EXPECT_THROW(tofa::sim::parse_abort_cost("half"), tofa::Error);
}

}  // namespace
