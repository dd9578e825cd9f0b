// SWF traces: parsing (comments, unknown fields, skipped jobs, errors naming
// file, line and column) and the writer's round trip.
#include <gtest/gtest.h>

#include "fixtures.hpp"

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "harness/stream/job_generator.hpp"
#include "harness/stream/swf.hpp"

namespace {

using tofa::harness::parse_swf;
using tofa::harness::StreamJob;
using tofa::harness::SwfTrace;
using tofa_test::error_text;

SwfTrace parse(const std::string& text) {
  std::istringstream in(text);
  return parse_swf(in, "trace.swf");
}

TEST(SwfParse, ReadsJobsCommentsAndUnknownFields) {
  const SwfTrace trace = parse(
      "; Version: 2.2\n"
      ";  MaxProcs: 128\n"
      "\n"
      "1 0 5 100 16 -1 -1 32 300 -1 1 7 1 -1 -1 -1 -1 -1\n"
      "   ; a comment between jobs\n"
      "2 10 -1 50 8 -1 -1 -1 -1 -1 1 3 -1 -1 -1 -1 -1 -1\r\n"
      "3\t20 0 -1 4 -1 -1 4 60 -1 5 1 1 -1 -1 -1 -1 -1\n"
      "4 30 0 0 4 -1 -1 4 60 -1 5 1 1 -1 -1 -1 -1 -1\n"
      "5 40 0 10 -1 -1 -1 -1 60 -1 0 1 1 -1 -1 -1 -1 -1\n"
      "6 -1 0 10 2 -1 -1 2 60 -1 0 1 1 -1 -1 -1 -1 -1\n"
      "7 50 0 12.5 2 -1 -1 0 20 -1 1 2 1 -1 -1 -1 -1 -1\n");
  ASSERT_EQ(trace.jobs.size(), 3u);
  // Requested processors (32) win over allocated (16).
  EXPECT_EQ(trace.jobs[0].id, 1);
  EXPECT_EQ(trace.jobs[0].submit, 0);
  EXPECT_EQ(trace.jobs[0].runtime, 100);
  EXPECT_EQ(trace.jobs[0].tasks, 32);
  EXPECT_EQ(trace.jobs[0].requested_time, 300);
  EXPECT_EQ(trace.jobs[0].user, 7);
  // Unknown requested processors and time: allocated processors, run time.
  EXPECT_EQ(trace.jobs[1].tasks, 8);
  EXPECT_EQ(trace.jobs[1].requested_time, 50);
  EXPECT_EQ(trace.jobs[1].user, 3);
  // Requested processors 0 counts as unknown; fractional times are kept.
  EXPECT_EQ(trace.jobs[2].id, 7);
  EXPECT_EQ(trace.jobs[2].tasks, 2);
  EXPECT_EQ(trace.jobs[2].runtime, 12.5);
  // Jobs 3 (run time -1) and 4 (0); 5 (no processors); 6 (no submit time).
  EXPECT_EQ(trace.skipped.no_runtime, 2);
  EXPECT_EQ(trace.skipped.no_tasks, 1);
  EXPECT_EQ(trace.skipped.no_submit, 1);
  EXPECT_EQ(trace.skipped.total(), 4);
  EXPECT_EQ(trace.max_procs, 128);
  EXPECT_EQ(trace.max_nodes, -1);
  ASSERT_EQ(trace.header.size(), 3u);
  EXPECT_EQ(trace.header[0], " Version: 2.2");
}

TEST(SwfParse, BadFieldNamesFileLineAndColumn) {
  const std::string good = "1 0 5 100 16 -1 -1 32 300 -1 1 7 1 -1 -1 -1 -1 -1\n";
  // Line 3, field 5 starts at column 11.
  EXPECT_EQ(error_text([&] { parse("; header\n" + good + "2 0 5 100 1x -1 -1 32 300 -1 1 7 1 -1 -1 -1 -1 -1\n"); }),
            "trace.swf:3:11: expected a number for field 5 (allocated processors), found '1x'");
  EXPECT_EQ(error_text([&] { parse("2 0 5 nan 1 -1 -1 32 300 -1 1 7 1 -1 -1 -1 -1 -1\n"); }),
            "trace.swf:1:7: expected a number for field 4 (run time), found 'nan'");
  EXPECT_EQ(error_text([&] { parse("2 0 5 10 1 -1 -1 2.5 300 -1 1 7 1 -1 -1 -1 -1 -1\n"); }),
            "trace.swf:1:18: expected an integer for field 8 (requested processors), found '2.5'");
}

TEST(SwfParse, WrongFieldCountNamesLine) {
  EXPECT_EQ(error_text([] { parse(";\n\n1 0 5 100 16 -1 -1 32 300 -1 1 7 1 -1 -1 -1 -1\n"); }),
            "trace.swf:3:0: expected 18 fields, found 17");
  EXPECT_EQ(error_text([] { parse("1 0 5 100 16 -1 -1 32 300 -1 1 7 1 -1 -1 -1 -1 -1 9\n"); }),
            "trace.swf:1:0: expected 18 fields, found 19");
}

TEST(SwfParse, MissingFileIsAnError) {
  EXPECT_NE(error_text([] { tofa::harness::read_swf("/nonexistent/trace.swf"); })
                .find("/nonexistent/trace.swf"),
            std::string::npos);
}

TEST(SwfRoundTrip, WriterOutputReadsBackTheSameJobs) {
  tofa::harness::JobStreamConfig config;
  config.jobs = 300;
  config.seed = 11;
  std::vector<StreamJob> jobs = tofa::harness::generate_jobs(config);
  jobs.push_back({9999, 12345.25, 0.5, 1.0 / 3.0, 3, -1});  // non-integral times survive
  std::ostringstream out;
  tofa::harness::write_swf(out, jobs, {"Note: test\nsecond line"}, 512);
  std::istringstream in(out.str());
  const SwfTrace trace = parse_swf(in, "written.swf");
  EXPECT_EQ(trace.skipped.total(), 0);
  EXPECT_EQ(trace.max_procs, 512);
  ASSERT_EQ(trace.jobs.size(), jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    EXPECT_EQ(trace.jobs[i].id, jobs[i].id) << "job " << i;
    EXPECT_EQ(trace.jobs[i].submit, jobs[i].submit) << "job " << i;
    EXPECT_EQ(trace.jobs[i].runtime, jobs[i].runtime) << "job " << i;
    EXPECT_EQ(trace.jobs[i].requested_time, jobs[i].requested_time) << "job " << i;
    EXPECT_EQ(trace.jobs[i].tasks, jobs[i].tasks) << "job " << i;
    EXPECT_EQ(trace.jobs[i].user, jobs[i].user) << "job " << i;
  }
}

TEST(SwfRoundTrip, FilesWrittenAreReadBack) {
  tofa::harness::JobStreamConfig config;
  config.jobs = 20;
  const std::vector<StreamJob> jobs = tofa::harness::generate_jobs(config);
  tofa_test::TempFile file("", ".swf");
  tofa::harness::write_swf_file(file.path(), jobs);
  const SwfTrace trace = tofa::harness::read_swf(file.path());
  ASSERT_EQ(trace.jobs.size(), jobs.size());
  EXPECT_EQ(trace.jobs.back().submit, jobs.back().submit);
}

TEST(SwfParse, ShippedSmallTraceIsValid) {
  const char* source = std::getenv("top_srcdir");
  const SwfTrace trace =
      tofa::harness::read_swf(std::string(source ? source : ".") + "/examples/harness/small.swf");
  EXPECT_EQ(trace.jobs.size(), 200u);
  EXPECT_EQ(trace.skipped.total(), 0);
  EXPECT_EQ(trace.max_procs, 512);
  EXPECT_EQ(trace.max_nodes, 512);
  for (const StreamJob& job : trace.jobs) {
    EXPECT_LE(job.tasks, 512) << "job " << job.id;
    EXPECT_GE(job.requested_time, job.runtime) << "job " << job.id;
  }
}

}  // namespace
