// The parts of the annealer: Equation 3's bounds, the beta ladder, energy
// changes of moves and swaps, Equation 5 and the bisection stages, the
// random stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "faults/faults.hpp"
#include "fixtures.hpp"
#include "map/anneal/bisection.hpp"
#include "map/anneal/cubic_problems.hpp"
#include "map/anneal/descent.hpp"
#include "map/anneal/distance_table.hpp"
#include "map/anneal/energy.hpp"
#include "map/anneal/initial_map.hpp"
#include "map/anneal/load_bounds.hpp"
#include "map/anneal/placement_state.hpp"
#include "map/anneal/random_stream.hpp"
#include "map/anneal/schedule.hpp"
#include "map/anneal/site_neighbourhood.hpp"

namespace {

using namespace tofa::anneal;
using tofa::CommGraph;
using tofa::Topology;

// p = 10/4 = 2.5: Int(p) = 2 <= n <= 3, and 10 - 2*4 = 2 nodes at 3.
TEST(LoadBounds, EquationThree) {
  const LoadBounds fractional = balanced_load(10, 4);
  EXPECT_EQ(fractional.lowest, 2);
  EXPECT_EQ(fractional.highest, 3);
  EXPECT_EQ(fractional.highest_sites, 2);
  // Whole p: every node exactly p.
  const LoadBounds whole = balanced_load(8, 4);
  EXPECT_EQ(whole.lowest, 2);
  EXPECT_EQ(whole.highest, 2);
  EXPECT_EQ(whole.highest_sites, 4);
  // p < 1: empty nodes allowed, at most one task each.
  const LoadBounds sparse = balanced_load(5, 8);
  EXPECT_EQ(sparse.lowest, 0);
  EXPECT_EQ(sparse.highest, 1);
  EXPECT_EQ(sparse.highest_sites, 5);
}

// Deltas {1, 2} at beta b: acceptance (e^-b + e^-2b) / 2, which is 0.15 at
// e^-b = (sqrt(1 + 4*0.3) - 1) / 2 = 0.24162, b = 1.42038. The last beta
// accepts the smallest uphill change (1) with the final probability:
// ln(1e9) = 20.7, whose tenth (2.07) does not cap the first.
TEST(Schedule, CalibrationHitsTheTargets) {
  const BetaRange range = calibrate_betas({1.0, 2.0}, 0.15, 1e-9);
  const double exact = -std::log((std::sqrt(2.2) - 1) / 2);
  EXPECT_NEAR(range.first, exact, 1e-3 * exact);  // calibrated to 0.1%
  EXPECT_NEAR(acceptance_at({1.0, 2.0}, range.first), 0.15, 2e-4);
  EXPECT_NEAR(range.last, std::log(1e9), 1e-9);
  // With 1e-3 the end is ln(1000) = 6.91 and the first beta is capped at 0.691.
  EXPECT_NEAR(calibrate_betas({1.0, 2.0}, 0.15, 1e-3).first, std::log(1000.0) / 10, 1e-12);
  // Half the samples are always accepted (50% > 15% at any beta): capped too.
  const BetaRange capped = calibrate_betas({1.0, 2.0, -1.0, 0.0}, 0.15, 1e-9);
  EXPECT_NEAR(capped.first, std::log(1e9) / 10, 1e-9);
  EXPECT_DOUBLE_EQ(calibrate_betas({-1.0, 0.0}, 0.15, 1e-3).last, 1.0);  // nothing uphill
}

TEST(Schedule, LadderIsGeometric) {
  const std::vector<double> ladder = beta_ladder({2.0, 200.0}, 3);
  ASSERT_EQ(ladder.size(), 3u);
  EXPECT_DOUBLE_EQ(ladder[0], 2.0);
  EXPECT_NEAR(ladder[1], 20.0, 1e-12);
  EXPECT_NEAR(ladder[2], 200.0, 1e-9);
  EXPECT_EQ(beta_ladder({2.0, 200.0}, 1), std::vector<double>{200.0});
}

// Every move and swap changes F by exactly what move_delta / swap_delta say.
TEST(PlacementState, DeltasMatchEnergyDifferences) {
  const CommGraph graph = tofa_test::stencil_graph(3, 3, 2, 2.5);
  const Topology torus = Topology::from_spec("torus:4x3x2");
  std::vector<int> nodes(torus.node_count());
  std::iota(nodes.begin(), nodes.end(), 0);
  for (auto metric : {tofa::DistanceMetric::Hops, tofa::DistanceMetric::ScaledHops,
                      tofa::DistanceMetric::Euclidean}) {
    const DistanceTable sites(torus, nodes, metric);
    PlacementState state(graph, sites, balanced_load(18, 24));
    for (int task = 0; task < 18; ++task) state.place(task, (task * 7) % 24);
    RandomStream random(3);
    for (int trial = 0; trial < 200; ++trial) {
      const int a = static_cast<int>(random.below(18));
      const double before = state.energy();
      if (trial % 2) {
        const int b = static_cast<int>(random.below(18));
        if (a == b) continue;
        const double delta = state.swap_delta(a, b);
        state.swap(a, b);
        EXPECT_NEAR(state.energy() - before, delta, 1e-9);
      } else {
        const int site = static_cast<int>(random.below(24));
        if (!state.can_move(state.site_of(a), site, true)) continue;
        const double delta = state.move_delta(a, site);
        state.move(a, site);
        EXPECT_NEAR(state.energy() - before, delta, 1e-9);
      }
    }
  }
}

// With faulty nodes, d(a, b) is Equation 1 along the routes (c = 1):
// the mean of w(R(a,b)) and w(R(b,a)), every link with a faulty endpoint
// costing 1 + penalty, checked against fault_weighted_distance's own route
// walk for every pair, on a torus with even rings (ties in the route
// direction) and on a mesh; with every node as a site, and with some of
// them in another order (the sites' coordinates are not a full grid).
TEST(DistanceTable, FaultPenaltyIsEquationOneAlongBothRoutes) {
  for (const char* spec : {"torus:4x3x2", "mesh:5x4", "torus:6x4", "torus:7x5x2", "torus:8x8x8"}) {
    const Topology topology = Topology::from_spec(spec);
    const int n = topology.node_count();
    std::vector<int> every(n);
    std::iota(every.begin(), every.end(), 0);
    std::vector<int> some;
    for (int node = n - 1; node >= 0; node -= 3) some.push_back(node);
    std::vector<double> outage(n, 0.0);
    outage[1] = 0.02;
    outage[2] = 0.1;  // next to node 1: their link counts once
    outage[n - 3] = 0.5;
    for (const std::vector<int>& nodes : {every, some}) {
      DistanceTable sites(topology, nodes, tofa::DistanceMetric::Hops);
      sites.add_fault_penalty(topology, outage, 100);
      const tofa::FaultCost cost{1.0, 100.0, nullptr};
      const int count = static_cast<int>(nodes.size());
      int penalised = 0;
      for (int a = 0; a < count; ++a)
        for (int b = 0; b < count; ++b) {
          const int u = nodes[a];
          const int v = nodes[b];
          const double want = u == v ? 0.0
                                     : (tofa::fault_weighted_distance(topology, outage, u, v, cost) +
                                        tofa::fault_weighted_distance(topology, outage, v, u, cost)) /
                                           2;
          EXPECT_DOUBLE_EQ(sites.distance(a, b), want) << spec << " " << u << " -> " << v;
          penalised += want > topology.hop_distance(u, v);
        }
      EXPECT_GT(penalised, count) << spec;  // the faulty nodes lie on many routes
    }
  }
}

// Cubic 1 on 4^3 in rank order (F_min = 384) with two neighbours swapped
// and two distant tasks swapped: the local descent restores rank order
// exactly, and leaves an optimal map alone.
TEST(LocalDescent, UndoesSwapsAndKeepsOptima) {
  const CommGraph graph = cubic_graph({4, 4, 4}, 1, 0);
  const Topology torus = Topology::from_spec("torus:4x4x4");
  std::vector<int> nodes(64);
  std::iota(nodes.begin(), nodes.end(), 0);
  const DistanceTable sites(torus, nodes, tofa::DistanceMetric::Hops);
  const SiteNeighbourhood around(torus, sites);
  PlacementState state(graph, sites, balanced_load(64, 64));
  for (int task = 0; task < 64; ++task) state.place(task, task);
  state.swap(0, 1);
  state.swap(21, 42);
  EXPECT_GT(state.energy(), 384.0);
  const std::vector<int> all = nodes;
  EXPECT_GT(local_descent(state, around, all, true, 10), 0u);
  EXPECT_DOUBLE_EQ(state.energy(), 384.0);
  EXPECT_EQ(state.nodes(), nodes);
  local_descent(state, around, all, true, 10);
  EXPECT_EQ(state.nodes(), nodes);
}

// A grow start whose deadline has passed still places every task, once per
// site, near its partners: by direct cost only, without look-ahead (another
// start than the full grow's), far better than a random start. One whose
// retry deadline has passed makes its first attempt in full, and no other.
TEST(GrowStart, HurriesPastItsDeadline) {
  const CommGraph graph = cubic_graph({4, 4, 4}, 1, 0);
  const Topology torus = Topology::from_spec("torus:8x8x8");
  std::vector<int> nodes(512);
  std::iota(nodes.begin(), nodes.end(), 0);
  const DistanceTable sites(torus, nodes, tofa::DistanceMetric::Hops);
  const SiteNeighbourhood around(torus, sites);
  std::vector<int> stage(64);
  std::iota(stage.begin(), stage.end(), 0);
  auto energy_of = [&](auto&& make_start) {
    PlacementState state(graph, sites, slot_load(512, 1));
    RandomStream random(7);
    make_start(state, random);
    std::set<int> used;
    for (int task = 0; task < 64; ++task) {
      EXPECT_GE(state.site_of(task), 0);
      used.insert(state.site_of(task));
    }
    EXPECT_EQ(used.size(), 64u);
    return state.energy();
  };
  const double full = energy_of([&](PlacementState& state, RandomStream& random) {
    grow_start(state, around, stage, 1, 0, random);
  });
  const double hurried = energy_of([&](PlacementState& state, RandomStream& random) {
    grow_start(state, around, stage, 1, 0, random,
               std::chrono::steady_clock::now() - std::chrono::seconds(1));
  });
  const double random_energy = energy_of(
      [&](PlacementState& state, RandomStream& random) { random_start(state, stage, random); });
  EXPECT_NE(full, hurried);
  EXPECT_LT(hurried, random_energy / 2);
  // Past the retry deadline no second attempt starts, and the first is not hurried.
  const double retried = energy_of([&](PlacementState& state, RandomStream& random) {
    grow_start(state, around, stage, 16, 0, random);
  });
  const double first_only = energy_of([&](PlacementState& state, RandomStream& random) {
    grow_start(state, around, stage, 16, 0, random, std::chrono::steady_clock::time_point::max(),
               std::chrono::steady_clock::now() - std::chrono::seconds(1));
  });
  EXPECT_EQ(first_only, full);
  EXPECT_LE(retried, full);
}

// 24 sites, 18 tasks: p = 0.75, so no site may hold two; a move to an
// empty site is fine, to an occupied one is not, and with all 18 tasks
// placed no site may take a 19th.
TEST(PlacementState, MovesKeepTheLoadBounds) {
  const CommGraph graph = tofa_test::ring_graph(18);
  const Topology torus = Topology::from_spec("torus:4x3x2");
  std::vector<int> nodes(24);
  std::iota(nodes.begin(), nodes.end(), 0);
  const DistanceTable sites(torus, nodes, tofa::DistanceMetric::Hops);
  PlacementState state(graph, sites, balanced_load(18, 24));
  for (int task = 0; task < 18; ++task) state.place(task, task);
  EXPECT_TRUE(state.can_move(0, 20, true));
  EXPECT_FALSE(state.can_move(0, 1, true));
  EXPECT_FALSE(state.can_take(5));
  EXPECT_FALSE(state.can_take(23));
  state.unplace(0);
  EXPECT_TRUE(state.can_take(23));
}

// A ring of 8 cut into 0..3 and 4..7: each half keeps 3 edges inside
// (counted from both ends: 6) of its 8 edge ends: l = 6/8 = 0.75.
TEST(Bisection, ConnectivityRatioOfEquationFive) {
  const CommGraph ring = tofa_test::ring_graph(8);
  std::vector<char> flags(8, 0);
  const std::vector<int> half = {0, 1, 2, 3};
  for (int task : half) flags[task] = 1;
  EXPECT_DOUBLE_EQ(connectivity_ratio(ring, half, flags), 0.75);
  const std::vector<int> all = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<char> every(8, 1);
  EXPECT_DOUBLE_EQ(connectivity_ratio(ring, all, every), 1.0);
}

TEST(Bisection, StagesCoverEveryTaskOnce) {
  const CommGraph graph = tofa_test::stencil_graph(8, 8, 8);
  EXPECT_EQ(bisection_stages(graph, 0, 1).size(), 1u);  // no limit: one stage
  // Halves of 8x8x8 keep ~95% of their traffic; 2x2x2 blocks only ~67%.
  const auto stages = bisection_stages(graph, 0.9, 1);
  EXPECT_GT(stages.size(), 2u);
  std::vector<int> seen;
  for (const auto& stage : stages) seen.insert(seen.end(), stage.begin(), stage.end());
  std::sort(seen.begin(), seen.end());
  std::vector<int> every(512);
  std::iota(every.begin(), every.end(), 0);
  EXPECT_EQ(seen, every);
  EXPECT_EQ(stages, bisection_stages(graph, 0.9, 1));  // deterministic
}

TEST(RandomStream, ReproducibleAndInRange) {
  RandomStream first(42), second(42), other(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const std::uint32_t value = first.below(7);
    EXPECT_LT(value, 7u);
    EXPECT_EQ(value, second.below(7));
    differs |= other.below(7) != value;
    const double unit = first.unit();
    second.unit();
    EXPECT_GE(unit, 0.0);
    EXPECT_LT(unit, 1.0);
  }
  EXPECT_TRUE(differs);
}

}  // namespace
