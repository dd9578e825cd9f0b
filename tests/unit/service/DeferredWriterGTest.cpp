// DeferredWriter: saves run off the caller's thread and none is lost at stop.
#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "service/deferred_writer.hpp"

namespace {

TEST(DeferredWriter, TheLastRequestIsSavedBeforeDestructionReturns) {
  std::mutex mutex;
  int current = 0;
  int saved = -1;
  std::atomic<int> runs{0};
  {
    tofa::service::DeferredWriter writer([&] {
      std::lock_guard<std::mutex> lock(mutex);
      saved = current;
      ++runs;
      return true;
    });
    for (int value = 1; value <= 50; ++value) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        current = value;
      }
      writer.request();
    }
  }
  EXPECT_EQ(saved, 50);
  EXPECT_GE(runs.load(), 1);
  EXPECT_LE(runs.load(), 50);  // requests made while a save runs are coalesced
}

TEST(DeferredWriter, RunsTheSaveOnItsOwnThread) {
  std::thread::id saver;
  {
    tofa::service::DeferredWriter writer([&] {
      saver = std::this_thread::get_id();
      return true;
    });
    writer.request();
  }
  EXPECT_NE(saver, std::thread::id());
  EXPECT_NE(saver, std::this_thread::get_id());
}

// Inside slurmctld the save must never take a core from the scheduler.
TEST(DeferredWriter, SavesRunOnlyWhenNoOtherThreadWantsTheCore) {
  int policy = -1;
  {
    tofa::service::DeferredWriter writer([&] {
      policy = sched_getscheduler(0);
      return true;
    });
    writer.request();
  }
  EXPECT_EQ(policy, SCHED_IDLE);
  EXPECT_EQ(sched_getscheduler(0), SCHED_OTHER) << "the requester keeps its policy";
}

TEST(DeferredWriter, NothingRunsWithoutARequest) {
  int runs = 0;
  {
    tofa::service::DeferredWriter writer([&] { return ++runs > 0; });
  }
  EXPECT_EQ(runs, 0);
}

TEST(DeferredWriter, AWaiterReturnsOnlyOnceARunCoveringItsTicketFinished) {
  std::mutex mutex;
  int current = 0;
  int saved = 0;
  tofa::service::DeferredWriter writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // an fsync
    std::lock_guard<std::mutex> lock(mutex);
    saved = current;
    return true;
  });
  std::vector<std::thread> threads;
  std::atomic<int> stale{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 1; i <= 20; ++i) {
        int mine;
        {
          std::lock_guard<std::mutex> lock(mutex);
          mine = ++current;
        }
        ASSERT_TRUE(writer.wait(writer.request()));
        std::lock_guard<std::mutex> lock(mutex);
        if (saved < mine) ++stale;
      }
      (void)t;
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(stale.load(), 0);  // every waiter saw a save that includes its change
}

TEST(DeferredWriter, AWaiterLearnsThatItsSaveFailed) {
  std::atomic<bool> disk_full{true};
  tofa::service::DeferredWriter writer([&] { return !disk_full.load(); });
  EXPECT_FALSE(writer.wait(writer.request()));
  disk_full = false;
  EXPECT_TRUE(writer.wait(writer.request()));
}

}  // namespace
