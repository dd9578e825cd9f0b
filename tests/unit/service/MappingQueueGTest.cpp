// Deferred mappings take turns by user (common/service/mapping_queue.cpp).
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "service/mapping_queue.hpp"

namespace {

using tofa::service::backlog_budget_share;
using tofa::service::mapping_start_time;
using tofa::service::MappingClock;
using tofa::service::MappingQueue;
using tofa::service::MappingSettle;
using std::chrono::microseconds;

// One thread, held by user 1's first work while user 1 queues four more and
// user 2 one: user 2's runs right after user 1's second, not after all five.
TEST(MappingQueueTest, UsersTakeTurns) {
  std::mutex mutex;
  std::condition_variable changed;
  bool release = false, started = false;
  std::vector<int> order;
  {
    MappingQueue queue(1);
    queue.push(1, [&] {
      std::unique_lock<std::mutex> lock(mutex);
      started = true;
      changed.notify_all();
      changed.wait(lock, [&] { return release; });
      order.push_back(10);
    });
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return started; });
    }
    for (int i = 1; i <= 4; ++i)
      queue.push(1, [&, i] {
        std::lock_guard<std::mutex> lock(mutex);
        order.push_back(10 + i);
      });
    queue.push(2, [&] {
      std::lock_guard<std::mutex> lock(mutex);
      order.push_back(20);
    });
    EXPECT_EQ(queue.waiting(), 5u);
    {
      std::lock_guard<std::mutex> lock(mutex);
      release = true;
    }
    changed.notify_all();
    while (queue.waiting() > 0) std::this_thread::yield();
  }  // the destructor waits for the running work
  EXPECT_EQ(order, (std::vector<int>{10, 11, 20, 12, 13, 14}));
}

TEST(MappingQueueTest, AnExceptionDoesNotStopTheThread) {
  std::mutex mutex;
  int ran = 0;
  {
    MappingQueue queue(1);
    queue.push(1, [] { throw 1; });
    queue.push(1, [&] {
      std::lock_guard<std::mutex> lock(mutex);
      ++ran;
    });
    while (queue.waiting() > 0) std::this_thread::yield();
  }
  EXPECT_EQ(ran, 1);
}

// The scheduler shares its CPUs with the mapping threads: they run 10 nice
// levels below the process and never preempt a thread on waking
// (SCHED_BATCH). SCHED_IDLE was tried: under a saturated 2-core harness
// stream the map workers it spawned starved past MapTimeLimit.
TEST(MappingQueueTest, MappingsRunBelowTheOtherThreads) {
  const int own = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
  int nice = own;
  int policy = -1;
  {
    MappingQueue queue(1);
    queue.push(1, [&] {
      nice = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
      policy = sched_getscheduler(0);
    });
    queue.wait_idle();
  }
  EXPECT_EQ(nice, std::min(own + 10, 19));
  EXPECT_EQ(policy, SCHED_BATCH);
  EXPECT_EQ(getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid))), own)
      << "the caller's thread keeps its nice value";
  EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER);
}

// Work starts once the queue has been quiet for `quiet`, or `max_hold`
// after it was queued, whichever comes first.
TEST(MappingQueueTest, WorkStartsWhenThePassPausesOrAtTheLatestAfterTheHold) {
  const MappingSettle settle{microseconds(3000), microseconds(25000)};
  const MappingClock::time_point t0{};
  // a lone job: 3 ms after it was queued
  EXPECT_EQ(mapping_start_time(t0, t0, settle), t0 + microseconds(3000));
  // more jobs queued behind it: 3 ms after the last of them
  EXPECT_EQ(mapping_start_time(t0 + microseconds(10000), t0, settle), t0 + microseconds(13000));
  // a pass that keeps queueing: 25 ms after the job itself
  EXPECT_EQ(mapping_start_time(t0 + microseconds(24000), t0, settle), t0 + microseconds(25000));
}

TEST(MappingQueueTest, WorkWaitsWhileTheSettleTimeRuns) {
  std::atomic<bool> ran{false};
  {
    MappingQueue queue(2, MappingSettle{std::chrono::minutes(10), std::chrono::minutes(10)});
    queue.push(1, [&] { ran = true; });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(queue.waiting(), 1u);
  }  // the destructor drops work not started
  EXPECT_FALSE(ran);
}

TEST(MappingQueueTest, BacklogSplitsTheBudget) {
  EXPECT_DOUBLE_EQ(backlog_budget_share(0, 2), 1.0);
  EXPECT_DOUBLE_EQ(backlog_budget_share(2, 2), 0.5);
  EXPECT_DOUBLE_EQ(backlog_budget_share(6, 2), 0.25);
  // In a steady stream the queue holds arrival rate x budget mappings, and
  // each gets the threads' time over the arrival rate.
  const double budget = 0.1, rate = 1000;
  const auto waiting = static_cast<std::size_t>(rate * budget - 2);
  EXPECT_NEAR(backlog_budget_share(waiting, 2) * budget, 2 / rate, 1e-12);
}

}  // namespace
