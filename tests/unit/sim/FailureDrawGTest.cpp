// The seed's failure draw: seeded, exact, every seed recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "sim/failure_draw.hpp"

namespace {

using tofa::sim::BatchDraw;
using tofa::sim::FailureModel;

// The draw written out again from its documentation, with different
// arithmetic, so that the exact sets below are not the code's own output.
std::uint64_t reference_below(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t two_to_64_mod_bound = (max % bound + 1) % bound;
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= two_to_64_mod_bound) return x % bound;
  }
}

double reference_unit(std::mt19937_64& rng) {
  return std::ldexp(static_cast<double>(rng() / 2048), -53);
}

BatchDraw reference_batch(int nodes, int n_f, double p_f, int instances, std::uint64_t seed) {
  BatchDraw batch;
  batch.seed = seed;
  std::mt19937_64 rng(seed);
  std::vector<int> deck;
  for (int node = 0; node < nodes; ++node) deck.push_back(node);
  for (int i = 0; i < n_f; ++i) {
    const std::uint64_t left = static_cast<std::uint64_t>(nodes - i);
    std::swap(deck[i], deck[i + static_cast<int>(reference_below(rng, left))]);
  }
  std::set<int> chosen(deck.begin(), deck.begin() + n_f);
  batch.outage_nodes.assign(chosen.begin(), chosen.end());
  for (int k = 0; k < instances; ++k) batch.instance_seeds.push_back(rng());
  for (std::uint64_t instance_seed : batch.instance_seeds) {
    std::mt19937_64 instance(instance_seed);
    std::vector<int> failed;
    for (int node : chosen)
      if (reference_unit(instance) < p_f) failed.push_back(node);
    batch.failed.push_back(failed);
  }
  return batch;
}

TEST(FailureDraw, BelowAPowerOfTwoIsTheOutputModuloIt) {
  std::mt19937_64 drawn(7), plain(7);
  for (int i = 0; i < 1000; ++i)
    ASSERT_EQ(tofa::sim::draw_below(drawn, 8), plain() % 8) << "draw " << i;
  std::mt19937_64 one(7);
  EXPECT_EQ(tofa::sim::draw_below(one, 1), 0u);
}

TEST(FailureDraw, BelowRejectsTheBiasedLowOutputs) {
  // 2^64 mod (2^63 + 1) = 2^63 - 1: about half of the outputs are rejected.
  const std::uint64_t bound = (std::uint64_t{1} << 63) + 1;
  std::mt19937_64 drawn(11), reference(11), counter(11);
  int rejected = 0;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(tofa::sim::draw_below(drawn, bound), reference_below(reference, bound))
        << "draw " << i;
  }
  for (int i = 0; i < 1000; ++i) rejected += counter() < (std::uint64_t{1} << 63) - 1;
  EXPECT_GT(rejected, 300);
  EXPECT_THROW(tofa::sim::draw_below(drawn, 0), tofa::Error);
}

TEST(FailureDraw, UnitIsTheTop53Bits) {
  std::mt19937_64 drawn(3), reference(3);
  for (int i = 0; i < 1000; ++i) {
    const double u = tofa::sim::draw_unit(drawn);
    ASSERT_EQ(u, reference_unit(reference)) << "draw " << i;
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(FailureDraw, BatchIsExactForFixedSeeds) {
  // The seed's setting (16 of 512 nodes at 2%, 100 instances) and a dense one.
  struct Case {
    int nodes, n_f;
    double p_f;
    int instances;
    std::uint64_t seed;
  };
  for (const Case& c :
       {Case{512, 16, 0.02, 100, 20240613}, Case{64, 10, 0.4, 30, 1}, Case{8, 8, 0.5, 5, 0}}) {
    const BatchDraw got =
        tofa::sim::draw_batch(c.nodes, FailureModel{c.n_f, c.p_f}, c.instances, c.seed);
    const BatchDraw want = reference_batch(c.nodes, c.n_f, c.p_f, c.instances, c.seed);
    const std::string where = "seed " + std::to_string(c.seed);
    EXPECT_EQ(got.seed, c.seed) << where;
    EXPECT_EQ(got.outage_nodes, want.outage_nodes) << where;
    EXPECT_EQ(got.instance_seeds, want.instance_seeds) << where;
    EXPECT_EQ(got.failed, want.failed) << where;
  }
}

TEST(FailureDraw, OutageNodesAreDistinctSortedAndInRange) {
  const BatchDraw batch = tofa::sim::draw_batch(512, FailureModel{16, 0.02}, 100, 99);
  ASSERT_EQ(batch.outage_nodes.size(), 16u);
  EXPECT_TRUE(std::is_sorted(batch.outage_nodes.begin(), batch.outage_nodes.end()));
  EXPECT_EQ(std::set<int>(batch.outage_nodes.begin(), batch.outage_nodes.end()).size(), 16u);
  EXPECT_GE(batch.outage_nodes.front(), 0);
  EXPECT_LT(batch.outage_nodes.back(), 512);
  ASSERT_EQ(batch.failed.size(), 100u);
  for (const auto& failed : batch.failed)
    for (int node : failed)
      EXPECT_TRUE(std::binary_search(batch.outage_nodes.begin(), batch.outage_nodes.end(), node))
          << "failed node " << node << " has no outage probability";
}

TEST(FailureDraw, SameSeedSameBatchOtherSeedOtherNodes) {
  const FailureModel model{16, 0.02};
  const BatchDraw a = tofa::sim::draw_batch(512, model, 100, 5);
  const BatchDraw b = tofa::sim::draw_batch(512, model, 100, 5);
  EXPECT_EQ(a.outage_nodes, b.outage_nodes);
  EXPECT_EQ(a.failed, b.failed);
  EXPECT_NE(a.outage_nodes, tofa::sim::draw_batch(512, model, 100, 6).outage_nodes);
}

TEST(FailureDraw, ProbabilitiesZeroAndOneAreCertain) {
  for (const auto& failed : tofa::sim::draw_batch(64, FailureModel{8, 0.0}, 50, 1).failed)
    EXPECT_TRUE(failed.empty());
  const BatchDraw all = tofa::sim::draw_batch(64, FailureModel{8, 1.0}, 50, 1);
  for (const auto& failed : all.failed) EXPECT_EQ(failed, all.outage_nodes);
  EXPECT_TRUE(tofa::sim::draw_batch(64, FailureModel{0, 0.5}, 3, 1).outage_nodes.empty());
  EXPECT_EQ(tofa::sim::draw_batch(4, FailureModel{4, 0.5}, 3, 1).outage_nodes,
            (std::vector<int>{0, 1, 2, 3}));
}

TEST(FailureDraw, FailureFrequencyIsNearTheProbability) {
  const BatchDraw batch = tofa::sim::draw_batch(512, FailureModel{16, 0.3}, 2000, 8);
  std::size_t failures = 0;
  for (const auto& failed : batch.failed) failures += failed.size();
  const double frequency = static_cast<double>(failures) / (16.0 * 2000);
  EXPECT_NEAR(frequency, 0.3, 0.02);  // 32000 draws: the standard error is 0.0026
}

TEST(FailureDraw, BadModelsAreRefused) {
  EXPECT_THROW(tofa::sim::draw_batch(8, FailureModel{9, 0.1}, 1, 1), tofa::Error);
  EXPECT_THROW(tofa::sim::draw_batch(8, FailureModel{-1, 0.1}, 1, 1), tofa::Error);
  EXPECT_THROW(tofa::sim::draw_batch(8, FailureModel{2, 1.5}, 1, 1), tofa::Error);
  EXPECT_THROW(tofa::sim::draw_batch(8, FailureModel{2, -0.1}, 1, 1), tofa::Error);
  EXPECT_THROW(tofa::sim::draw_batch(8, FailureModel{2, 0.1}, -1, 1), tofa::Error);
  EXPECT_THROW(tofa::sim::draw_batch(0, FailureModel{0, 0.1}, 1, 1), tofa::Error);
}

TEST(FailureDraw, BatchSeedsAreTheMasterGeneratorsFirstOutputs) {
  std::mt19937_64 master(42);
  const std::vector<std::uint64_t> seeds = tofa::sim::batch_seeds(42, 10);
  ASSERT_EQ(seeds.size(), 10u);
  for (std::uint64_t seed : seeds) EXPECT_EQ(seed, master());
  EXPECT_EQ(std::set<std::uint64_t>(seeds.begin(), seeds.end()).size(), 10u);
}

}  // namespace
