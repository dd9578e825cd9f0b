// EASY backfilling: hand-built cases where a wrong scheduler would differ,
// and invariants swept over generated streams.
#include <gtest/gtest.h>

#include "fixtures.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "harness/stream/easy_backfill.hpp"
#include "harness/stream/job_generator.hpp"
#include "harness/stream/stream_allocators.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::harness::EasyOptions;
using tofa::harness::Machine;
using tofa::harness::ScheduledJob;
using tofa::harness::simulate_easy;
using tofa::harness::StreamJob;
using tofa::harness::StreamResult;

StreamJob job(long id, double submit, int tasks, double runtime, double requested = -1) {
  return {id, submit, runtime, requested > 0 ? requested : runtime, tasks, 1};
}

const ScheduledJob& find(const StreamResult& result, long id) {
  for (const ScheduledJob& scheduled : result.jobs)
    if (scheduled.job.id == id) return scheduled;
  throw std::runtime_error("job " + std::to_string(id) + " was not scheduled");
}

/// No node ever holds more tasks than its slots: sweep start/end events,
/// ends before starts at equal times.
void expect_no_oversubscription(const Machine& machine, const StreamResult& result) {
  std::vector<std::tuple<double, int, const ScheduledJob*>> events;
  for (const ScheduledJob& scheduled : result.jobs) {
    events.emplace_back(scheduled.start, 1, &scheduled);
    events.emplace_back(scheduled.end, 0, &scheduled);
  }
  std::sort(events.begin(), events.end());
  std::vector<int> used(machine.node_count, 0);
  for (const auto& [time, is_start, scheduled] : events) {
    for (int node : scheduled->task_nodes) {
      ASSERT_GE(node, 0);
      ASSERT_LT(node, machine.node_count);
      used[node] += is_start ? 1 : -1;
      ASSERT_LE(used[node], machine.slots_per_node)
          << "node " << node << " at time " << time << " (job " << scheduled->job.id << ")";
    }
  }
}

/// Every job is either started exactly once or rejected exactly once.
void expect_each_job_once(const std::vector<StreamJob>& jobs, const StreamResult& result) {
  std::multiset<long> seen;
  for (const ScheduledJob& scheduled : result.jobs) {
    seen.insert(scheduled.job.id);
    EXPECT_GE(scheduled.start, scheduled.job.submit) << "job " << scheduled.job.id;
    EXPECT_EQ(scheduled.end, scheduled.start + scheduled.job.runtime);
    EXPECT_EQ(scheduled.task_nodes.size(), static_cast<std::size_t>(scheduled.job.tasks));
  }
  for (const auto& rejected : result.rejected) seen.insert(rejected.job.id);
  ASSERT_EQ(seen.size(), jobs.size());
  for (const StreamJob& input : jobs) {
    EXPECT_EQ(seen.count(input.id), 1u) << "job " << input.id;
  }
}

TEST(EasyBackfill, BackfillsOnlyWhatCannotDelayTheHead) {
  const Machine machine{1, 4};
  // A holds 3 of 4 slots until 100; B (all 4) waits with a reservation at
  // 100. C (1 slot, ends by 52) may run in the hole; D (1 slot, arriving at
  // 60 when C's slot is free again, but asking for 200 s) would still be
  // running at 100 and the head needs every slot then: it must wait.
  const std::vector<StreamJob> jobs = {job(1, 0, 3, 100), job(2, 1, 4, 50),
                                       job(3, 2, 1, 50), job(4, 60, 1, 200)};
  const StreamResult result = simulate_easy(machine, jobs, tofa::harness::block_allocator());
  expect_each_job_once(jobs, result);
  const ScheduledJob& head = find(result, 2);
  EXPECT_EQ(head.reservation, 100);
  EXPECT_EQ(head.start, 100);
  EXPECT_FALSE(head.backfilled);
  EXPECT_TRUE(find(result, 3).backfilled);
  EXPECT_EQ(find(result, 3).start, 2);
  EXPECT_GE(find(result, 4).start, head.start);
  expect_no_oversubscription(machine, result);
}

TEST(EasyBackfill, UsesSlotsTheHeadDoesNotNeed) {
  const Machine machine{4, 1};
  // A holds 3 nodes until 100; B wants 2 nodes at 100, leaving 2 spare then.
  // C (1 node, 1000 s) outlives the reservation but fits in the spare: it
  // starts now, and B still starts at 100.
  const std::vector<StreamJob> jobs = {job(1, 0, 3, 100), job(2, 1, 2, 10),
                                       job(3, 2, 1, 1000)};
  const StreamResult result = simulate_easy(machine, jobs, tofa::harness::block_allocator());
  EXPECT_EQ(find(result, 3).start, 2);
  EXPECT_TRUE(find(result, 3).backfilled);
  EXPECT_EQ(find(result, 2).start, 100);
  expect_no_oversubscription(machine, result);
}

TEST(EasyBackfill, FifoWithoutBackfillOpportunities) {
  const Machine machine{2, 2};
  // Every job needs the whole machine: they run one after the other in
  // submit order, whatever their length.
  std::vector<StreamJob> jobs;
  for (int i = 0; i < 6; ++i) jobs.push_back(job(10 + i, i, 4, 100 - 10 * i));
  std::reverse(jobs.begin(), jobs.end());  // input order does not matter
  const StreamResult result = simulate_easy(machine, jobs, tofa::harness::block_allocator());
  ASSERT_EQ(result.jobs.size(), 6u);
  for (std::size_t i = 0; i < result.jobs.size(); ++i) {
    EXPECT_EQ(result.jobs[i].job.id, 10 + static_cast<long>(i));
    EXPECT_FALSE(result.jobs[i].backfilled);
    if (i > 0) {
      EXPECT_EQ(result.jobs[i].start, result.jobs[i - 1].end);
    }
  }
}

TEST(EasyBackfill, WithoutBackfillStartsFollowSubmitOrder) {
  tofa::harness::JobStreamConfig config;
  config.jobs = 400;
  config.machine_slots = 64;
  config.max_tasks = 64;
  config.seed = 3;
  const std::vector<StreamJob> jobs = tofa::harness::generate_jobs(config);
  EasyOptions options;
  options.backfill = false;
  const Machine machine{16, 4};
  const StreamResult result =
      simulate_easy(machine, jobs, tofa::harness::block_allocator(), options);
  expect_each_job_once(jobs, result);
  for (std::size_t i = 1; i < result.jobs.size(); ++i) {
    EXPECT_LE(result.jobs[i - 1].job.id, result.jobs[i].job.id);  // ids follow submit order
    EXPECT_FALSE(result.jobs[i].backfilled);
  }
  expect_no_oversubscription(machine, result);
}

TEST(EasyBackfill, GeneratedStreamsKeepEveryInvariant) {
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:8x8");
  struct Case {
    const char* name;
    Machine machine;
    tofa::harness::Allocate allocate;
  };
  const std::vector<Case> cases = {
      {"block 64x1", {64, 1}, tofa::harness::block_allocator()},
      {"block 16x4", {16, 4}, tofa::harness::block_allocator()},
      {"snake 64x2", {64, 2}, tofa::harness::snake_best_fit_allocator(mesh)},
      {"mc1x1 64x1", {64, 1}, tofa::harness::mc1x1_allocator(mesh)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    tofa::harness::JobStreamConfig config;
    config.jobs = 300;
    config.machine_slots = c.machine.slots();
    config.max_tasks = static_cast<int>(c.machine.slots());
    config.seed = 17;
    std::vector<StreamJob> jobs = tofa::harness::generate_jobs(config);
    jobs.push_back(job(100000, 50, static_cast<int>(c.machine.slots()) + 1, 10));
    long last_done = 0;
    EasyOptions options;
    options.progress = [&](long done, long total) {
      EXPECT_EQ(done, last_done + 1);
      EXPECT_EQ(total, static_cast<long>(jobs.size()));
      last_done = done;
    };
    const StreamResult result = simulate_easy(c.machine, jobs, c.allocate, options);
    EXPECT_EQ(last_done, static_cast<long>(jobs.size()));
    expect_each_job_once(jobs, result);
    expect_no_oversubscription(c.machine, result);
    ASSERT_EQ(result.rejected.size(), 1u);
    EXPECT_EQ(result.rejected[0].job.id, 100000);
    EXPECT_GT(result.totals.utilisation, 0);
    EXPECT_LE(result.totals.utilisation, 1 + 1e-9);
    EXPECT_LE(result.totals.p50_wait, result.totals.p95_wait);
    EXPECT_GE(result.totals.mean_bounded_slowdown, 1);
    // Slot counts are exact for the block layout: with requested times
    // never below runtimes, no head starts after its first reservation.
    if (std::string(c.name).rfind("block", 0) == 0) {
      int reserved = 0;
      for (const ScheduledJob& scheduled : result.jobs) {
        if (scheduled.reservation < 0) continue;
        ++reserved;
        EXPECT_LE(scheduled.start, scheduled.reservation) << "job " << scheduled.job.id;
      }
      EXPECT_GT(reserved, 0);
    }
  }
}

TEST(EasyBackfill, ImpossibleJobsAreRejectedNotLoopedOn) {
  const Machine machine{4, 2};
  const std::vector<StreamJob> jobs = {job(1, 0, 9, 10), job(2, 0, 8, 10), job(3, 5, 100, 10)};
  const StreamResult result = simulate_easy(machine, jobs, tofa::harness::block_allocator());
  ASSERT_EQ(result.jobs.size(), 1u);
  EXPECT_EQ(result.jobs[0].job.id, 2);
  ASSERT_EQ(result.rejected.size(), 2u);
  EXPECT_EQ(result.rejected[0].job.id, 1);
  EXPECT_EQ(result.rejected[0].reason, "9 tasks, more than the machine's 8 slots");
  EXPECT_EQ(result.rejected[1].job.id, 3);
}

TEST(EasyBackfill, AllocatorThatNeverPlacesRejectsOnTheIdleMachine) {
  const Machine machine{4, 1};
  const std::vector<StreamJob> jobs = {job(1, 0, 2, 10), job(2, 0, 1, 10)};
  // Places only single-task jobs: job 1 is unplaceable even when idle.
  auto allocate = [](const StreamJob& j, const std::vector<int>& free_slots)
      -> std::optional<std::vector<int>> {
    if (j.tasks != 1) return std::nullopt;
    for (std::size_t n = 0; n < free_slots.size(); ++n)
      if (free_slots[n] > 0) return std::vector<int>{static_cast<int>(n)};
    return std::nullopt;
  };
  const StreamResult result = simulate_easy(machine, jobs, allocate);
  ASSERT_EQ(result.rejected.size(), 1u);
  EXPECT_EQ(result.rejected[0].job.id, 1);
  EXPECT_EQ(result.rejected[0].reason, "the allocator could not place it on the idle machine");
  ASSERT_EQ(result.jobs.size(), 1u);
  EXPECT_EQ(result.jobs[0].job.id, 2);
}

TEST(EasyBackfill, AllocatorBreakingTheRulesIsAnError) {
  const Machine machine{2, 1};
  auto twice_on_zero = [](const StreamJob&, const std::vector<int>&)
      -> std::optional<std::vector<int>> { return std::vector<int>{0, 0}; };
  EXPECT_EQ(tofa_test::error_text([&] {
              simulate_easy(machine, {job(7, 0, 2, 10)}, twice_on_zero);
            }),
            "EASY: the allocator gave job 7 2 tasks on node 0, which has 1 free slots");
}

TEST(EasyBackfill, StartCallbackSeesEveryStartWithItsNodes) {
  tofa::harness::JobStreamConfig config;
  config.jobs = 100;
  config.machine_slots = 32;
  config.max_tasks = 32;
  const std::vector<StreamJob> jobs = tofa::harness::generate_jobs(config);
  EasyOptions options;
  options.keep_task_nodes = false;
  std::vector<long> started;
  options.on_start = [&](const ScheduledJob& scheduled) {
    started.push_back(scheduled.job.id);
    EXPECT_EQ(scheduled.task_nodes.size(), static_cast<std::size_t>(scheduled.job.tasks));
  };
  const StreamResult result =
      simulate_easy(Machine{8, 4}, jobs, tofa::harness::block_allocator(), options);
  ASSERT_EQ(started.size(), result.jobs.size());
  for (std::size_t i = 0; i < started.size(); ++i) {
    EXPECT_EQ(started[i], result.jobs[i].job.id);
    EXPECT_TRUE(result.jobs[i].task_nodes.empty());
  }
}

}  // namespace
