// DeferredWriter: saves run off the caller's thread and none is lost at stop.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

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
    tofa::service::DeferredWriter writer([&] { saver = std::this_thread::get_id(); });
    writer.request();
  }
  EXPECT_NE(saver, std::thread::id());
  EXPECT_NE(saver, std::this_thread::get_id());
}

TEST(DeferredWriter, NothingRunsWithoutARequest) {
  int runs = 0;
  { tofa::service::DeferredWriter writer([&] { ++runs; }); }
  EXPECT_EQ(runs, 0);
}

}  // namespace
