// Deferred mappings take turns by user (common/service/mapping_queue.cpp).
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "service/mapping_queue.hpp"

namespace {

using tofa::service::MappingQueue;

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

}  // namespace
