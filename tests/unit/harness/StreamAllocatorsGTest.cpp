// The stream allocators on partly used machines: only nodes with free slots,
// never more tasks on a node than it has free.
#include <gtest/gtest.h>

#include "fixtures.hpp"

#include <map>
#include <random>
#include <string>
#include <vector>

#include "harness/stream/stream_allocators.hpp"
#include "harness/stream/stream_metrics.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::harness::Allocate;
using tofa::harness::StreamJob;

/// Random free-slot counts in [0, slots], about a third of the nodes full.
std::vector<int> random_free_slots(int nodes, int slots, unsigned seed) {
  std::mt19937 engine(seed);
  std::vector<int> free_slots(nodes);
  for (int& free : free_slots) {
    const unsigned draw = engine() % 3;
    free = draw == 0 ? 0 : (draw == 1 ? slots : static_cast<int>(engine() % (slots + 1)));
  }
  return free_slots;
}

void expect_valid(const std::vector<int>& free_slots, const StreamJob& job,
                  const std::vector<int>& task_nodes, bool whole_free_only, int slots) {
  ASSERT_EQ(task_nodes.size(), static_cast<std::size_t>(job.tasks));
  std::map<int, int> per_node;
  for (int node : task_nodes) {
    ASSERT_GE(node, 0);
    ASSERT_LT(node, static_cast<int>(free_slots.size()));
    ++per_node[node];
  }
  for (const auto& [node, count] : per_node) {
    EXPECT_GT(free_slots[node], 0) << "node " << node;
    EXPECT_LE(count, free_slots[node]) << "node " << node;
    if (whole_free_only) {
      EXPECT_EQ(free_slots[node], slots) << "node " << node;
    }
  }
}

struct Named {
  std::string name;
  Allocate allocate;
  bool whole_free_only;
};

TEST(StreamAllocators, OnlyFreeSlotsAndNeverMoreThanFree) {
  const int slots = 4;
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:8x8:cores=4");
  const auto stencil = [](const StreamJob& job) {
    return tofa::harness::bunde_stencil_graph(job.tasks);
  };
  const std::vector<Named> allocators = {
      {"block", tofa::harness::block_allocator(), false},
      {"mc1x1", tofa::harness::mc1x1_allocator(mesh), false},
      {"snake", tofa::harness::snake_best_fit_allocator(mesh), false},
      {"default-slurm", tofa::harness::strategy_allocator(mesh, "default-slurm", slots, stencil),
       true},
      {"greedy", tofa::harness::strategy_allocator(mesh, "greedy", slots, stencil), true},
      {"stencil-rcb", tofa::harness::strategy_allocator(mesh, "stencil-rcb", slots, stencil),
       true},
  };
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const std::vector<int> free_slots = random_free_slots(64, slots, seed);
    long long free_total = 0;
    for (int free : free_slots) free_total += free;
    for (int tasks : {1, 3, 7, 16, 30}) {
      if (tasks > free_total) continue;
      const StreamJob job{seed * 100L + tasks, 0, 10, 10, tasks, 1};
      for (const Named& allocator : allocators) {
        SCOPED_TRACE(allocator.name + ", seed " + std::to_string(seed) + ", " +
                     std::to_string(tasks) + " tasks");
        const std::optional<std::vector<int>> placed = allocator.allocate(job, free_slots);
        // Block, MC1x1 and snake place whenever the slots suffice.
        if (!allocator.whole_free_only) {
          ASSERT_TRUE(placed.has_value());
        }
        if (placed) expect_valid(free_slots, job, *placed, allocator.whole_free_only, slots);
      }
    }
  }
}

TEST(StreamAllocators, BlockTakesLowestFreeNodesFirst) {
  const std::vector<int> free_slots = {0, 2, 1, 0, 4};
  const StreamJob job{1, 0, 10, 10, 4, 1};
  const std::optional<std::vector<int>> placed = tofa::harness::block_allocator()(job, free_slots);
  ASSERT_TRUE(placed.has_value());
  EXPECT_EQ(*placed, (std::vector<int>{1, 1, 2, 4}));
  const StreamJob too_big{2, 0, 10, 10, 8, 1};
  EXPECT_FALSE(tofa::harness::block_allocator()(too_big, free_slots).has_value());
}

TEST(StreamAllocators, StrategyWithoutRoomIsNotPlacedAndUnknownStrategyIsAnError) {
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:4x4:cores=2");
  const auto stencil = [](const StreamJob& job) {
    return tofa::harness::bunde_stencil_graph(job.tasks);
  };
  const Allocate allocate = tofa::harness::strategy_allocator(mesh, "default-slurm", 2, stencil);
  // 16 nodes, only two fully free: 5 tasks do not fit on whole free nodes.
  std::vector<int> free_slots(16, 1);
  free_slots[3] = 2;
  free_slots[9] = 2;
  EXPECT_FALSE(allocate({1, 0, 10, 10, 5, 1}, free_slots).has_value());
  EXPECT_NE(tofa_test::error_text([&] {
              tofa::harness::strategy_allocator(mesh, "no-such-strategy", 2, stencil);
            }).find("unknown strategy 'no-such-strategy'"),
            std::string::npos);
  // A topology of another size than the machine.
  EXPECT_NE(tofa_test::error_text([&] { allocate({1, 0, 10, 10, 1, 1}, std::vector<int>(8, 2)); })
                .find("the machine has 8 nodes but the topology 16"),
            std::string::npos);
}

}  // namespace
