// The seeded job stream generator: reproducible, within its bounds.
#include <gtest/gtest.h>

#include "fixtures.hpp"

#include <vector>

#include "harness/stream/job_generator.hpp"
#include "harness/stream/random_draws.hpp"

namespace {

using tofa::harness::generate_jobs;
using tofa::harness::JobStreamConfig;
using tofa::harness::StreamJob;

bool same(const std::vector<StreamJob>& a, const std::vector<StreamJob>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].id != b[i].id || a[i].submit != b[i].submit || a[i].runtime != b[i].runtime ||
        a[i].requested_time != b[i].requested_time || a[i].tasks != b[i].tasks ||
        a[i].user != b[i].user)
      return false;
  }
  return true;
}

TEST(StreamGenerator, SameSeedSameStreamOtherSeedOtherStream) {
  JobStreamConfig config;
  config.jobs = 500;
  config.seed = 42;
  const std::vector<StreamJob> first = generate_jobs(config);
  EXPECT_TRUE(same(first, generate_jobs(config)));
  config.seed = 43;
  EXPECT_FALSE(same(first, generate_jobs(config)));
}

TEST(StreamGenerator, JobsStayWithinTheirBounds) {
  JobStreamConfig config;
  config.jobs = 2000;
  config.max_tasks = 100;
  config.machine_slots = 256;
  config.min_runtime = 60;
  config.max_runtime = 7200;
  config.max_overestimate = 3;
  config.users = 5;
  const std::vector<StreamJob> jobs = generate_jobs(config);
  ASSERT_EQ(jobs.size(), 2000u);
  int powers_of_two = 0;
  double work = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const StreamJob& job = jobs[i];
    EXPECT_EQ(job.id, static_cast<long>(i) + 1);
    EXPECT_GE(job.tasks, 1) << "job " << job.id;
    EXPECT_LE(job.tasks, 100) << "job " << job.id;
    EXPECT_GE(job.runtime, 60) << "job " << job.id;
    EXPECT_LE(job.runtime, 7200) << "job " << job.id;
    EXPECT_GE(job.requested_time, job.runtime) << "job " << job.id;
    EXPECT_LE(job.requested_time, 3 * job.runtime + 1) << "job " << job.id;
    EXPECT_GE(job.user, 1);
    EXPECT_LE(job.user, 5);
    if (i > 0) {
      EXPECT_GE(job.submit, jobs[i - 1].submit) << "job " << job.id;
    }
    if ((job.tasks & (job.tasks - 1)) == 0) ++powers_of_two;
    work += job.tasks * job.runtime;
  }
  EXPECT_EQ(jobs.front().submit, 0);
  // Powers of two are favoured (60% drawn as such, some more by chance).
  EXPECT_GT(powers_of_two, 1000);
  // Offered load near 0.9: work over slots x submit span (loose: a sample).
  const double load = work / (256.0 * jobs.back().submit);
  EXPECT_GT(load, 0.7);
  EXPECT_LT(load, 1.1);
}

TEST(StreamGenerator, BadConfigurationIsAnError) {
  JobStreamConfig config;
  config.load = 0;
  EXPECT_EQ(tofa_test::error_text([&] { generate_jobs(config); }),
            "job stream: load must be > 0, got 0.000000");
}

TEST(StreamGenerator, DrawBelowStaysBelowItsBound) {
  std::mt19937_64 rng(5);
  for (std::uint64_t bound : {1ull, 2ull, 3ull, 7ull, 1000ull}) {
    for (int i = 0; i < 200; ++i) {
      EXPECT_LT(tofa::harness::draw_below(rng, bound), bound);
    }
  }
  for (int i = 0; i < 200; ++i) {
    const double u = tofa::harness::draw_unit(rng);
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
  }
}

}  // namespace
