// Mapping in a supervised worker process: same placements as in-process,
// and every way the worker can fail becomes an error, never a crash here.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "map/mapper.hpp"
#include "service/map_job_codec.hpp"
#include "service/map_worker.hpp"

namespace {

using tofa::CommGraph;
using tofa::MappingRequest;
using tofa::Placement;
using tofa::Topology;
using tofa::service::MapWorkerLimits;
using tofa::service::map_in_worker;
using tofa_test::error_text;

MapWorkerLimits real_worker(double seconds = 30, long long memory_mb = 1024) {
  return MapWorkerLimits{tofa_test::map_worker_program(), memory_mb, seconds};
}

/// An executable shell script standing in for the worker.
class FakeWorker {
 public:
  explicit FakeWorker(const std::string& body) : file_("#!/bin/sh\n" + body + "\n", ".sh") {
    chmod(file_.path().c_str(), 0700);
  }
  MapWorkerLimits limits(double seconds = 30) const { return {file_.path(), 1024, seconds}; }

 private:
  tofa_test::TempFile file_;
};

struct Job {
  Topology torus = Topology::from_spec("torus:4x4x4");
  CommGraph graph = tofa_test::ring_graph(12, 10.0);
  MappingRequest request;
  Job() {
    request.graph = &graph;
    request.topology = &torus;
    request.candidate_nodes = {5, 6, 7, 9, 10, 11, 40, 41};
    request.outage.assign(torus.node_count(), 0.0);
    request.outage[6] = 0.02;
    request.slots_per_node = 2;
    request.seed = 3;
  }
};

TEST(MapWorker, SamePlacementAsInProcess) {
  Job job;
  for (const char* strategy : {"tofa", "tofa-compact", "greedy", "anneal", "default-slurm"}) {
    const Placement here = tofa::make_mapper(strategy)->map(job.request);
    EXPECT_EQ(map_in_worker(job.request, strategy, real_worker()), here) << strategy;
  }
}

// A worker kept between jobs gets the running set's link costs once and
// each job's own links over them: the same placements as in-process.
TEST(MapWorker, KeptLinkCostsPlaceAsInProcess) {
  Job job;
  std::vector<double> extra(job.torus.link_slot_count(), 0.0);
  for (int node : {5, 6, 9, 10})
    for (const tofa::Link& link : job.torus.route(node, node + 1).links) extra[job.torus.link_id(link)] = 40.0;
  job.request.fault_cost.link_extra = std::make_shared<const std::vector<double>>(extra);
  job.request.fault_cost.link_extra_bytes = 100;
  const tofa::LinkCostPatch own = {{job.torus.link_id(job.torus.route(5, 6).links.at(0)), 0.0}};
  for (const tofa::LinkCostPatch& patch : {tofa::LinkCostPatch{}, own, own}) {
    MappingRequest here = job.request;
    here.fault_cost.link_extra = tofa::patched_link_costs(here.fault_cost.link_extra, patch);
    EXPECT_EQ(map_in_worker(job.request, "anneal", real_worker(), patch),
              tofa::make_mapper("anneal")->map(here));
  }
}

TEST(MapWorker, AnIdleWorkerThatDiedIsReplaced) {
  Job job;
  const Placement here = tofa::make_mapper("greedy")->map(job.request);
  ASSERT_EQ(map_in_worker(job.request, "greedy", real_worker()), here);
  // The worker now waits for its next job; the kernel kills it meanwhile.
  ASSERT_EQ(std::system("pkill -KILL -f '^[^ ]*tofa-map-worker --memory-mb 1024 '"), 0);
  EXPECT_EQ(map_in_worker(job.request, "greedy", real_worker()), here);
}

/// The nice values of the running workers started with `memory_mb`, sorted.
std::vector<int> worker_nices(long long memory_mb) {
  const std::string command = "ps -o ni= -p \"$(pgrep -d, -f '^[^ ]*tofa-map-worker --memory-mb " +
                              std::to_string(memory_mb) + " ')\" | sort -n";
  std::vector<int> nices;
  if (FILE* out = popen(command.c_str(), "r")) {
    int nice = 0;
    while (std::fscanf(out, "%d", &nice) == 1) nices.push_back(nice);
    pclose(out);
  }
  return nices;
}

// The mapping threads (nice +10) and slurmctld's own threads share the idle
// workers; each worker keeps the nice value of the thread that started it,
// so neither kind of caller gets the other's.
TEST(MapWorker, AWorkerServesCallersOfItsOwnNiceValue) {
  // Relative to this thread's nice value: the test command runs the
  // sanitizer builds at nice 19, where only a lower value differs.
  const int own = getpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)));
  const int niced_value = own < 19 ? std::min(own + 10, 19) : own - 9;
  Job job;
  const long long memory_mb = 1031;  // these workers only
  const Placement here = tofa::make_mapper("greedy")->map(job.request);
  bool reniced = false;
  std::thread niced([&] {
    reniced = setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), niced_value) == 0;
    if (reniced) {
      EXPECT_EQ(map_in_worker(job.request, "greedy", real_worker(30, memory_mb)), here);
    }
  });
  niced.join();
  if (!reniced) GTEST_SKIP() << "this process may not take nice " << niced_value;
  EXPECT_EQ(worker_nices(memory_mb), std::vector<int>{niced_value});
  EXPECT_EQ(map_in_worker(job.request, "greedy", real_worker(30, memory_mb)), here);
  const std::vector<int> both{std::min(own, niced_value), std::max(own, niced_value)};
  EXPECT_EQ(worker_nices(memory_mb), both);
  EXPECT_EQ(map_in_worker(job.request, "greedy", real_worker(30, memory_mb)), here);
  EXPECT_EQ(worker_nices(memory_mb), both)
      << "the worker of this thread's nice value is reused";
}

TEST(MapWorker, StrategyErrorsComeBackAsTheirText) {
  Job job;
  job.request.slots_per_node = 1;
  job.request.candidate_nodes = {1, 2};
  EXPECT_EQ(error_text([&] { map_in_worker(job.request, "greedy", real_worker()); }),
            "12 tasks do not fit on 2 nodes with 1 slots each");
  // The same worker answers the next job.
  job.request.slots_per_node = 6;
  EXPECT_EQ(map_in_worker(job.request, "greedy", real_worker()).size(), 12u);
}

TEST(MapWorker, OutOfMemoryIsReportedWithTheLimit) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "sanitizer builds run the worker without an address-space limit";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  GTEST_SKIP() << "sanitizer builds run the worker without an address-space limit";
#endif
#endif
  const Topology torus = Topology::from_spec("torus:64x64x16");
  std::vector<tofa::CommEdge> edges;
  std::mt19937 engine(1);
  for (int i = 0; i < 3000000; ++i)
    edges.push_back({static_cast<int>(engine() % 65536), static_cast<int>(engine() % 65536), 1, 1});
  const CommGraph graph = CommGraph::from_directed_edges(65536, edges);
  MappingRequest request;
  request.graph = &graph;
  request.topology = &torus;
  const std::string text =
      error_text([&] { map_in_worker(request, "greedy", real_worker(30, 64)); });
  EXPECT_NE(text.find("ran out of memory (limit 64 MB"), std::string::npos) << text;
}

TEST(MapWorker, RunawayStrategyIsStoppedAtItsCpuLimit) {
  const Topology torus = Topology::from_spec("torus:32x16x16");
  std::vector<tofa::CommEdge> edges;
  std::mt19937 engine(1);
  for (int task = 0; task < 8192; ++task)
    for (int k = 0; k < 4; ++k)
      edges.push_back({task, static_cast<int>(engine() % 8192), 1.0 + engine() % 1000, 1});
  const CommGraph graph = CommGraph::from_directed_edges(8192, edges);
  MappingRequest request;
  request.graph = &graph;
  request.topology = &torus;
  const std::string text = error_text([&] { map_in_worker(request, "anneal", real_worker(1)); });
  EXPECT_EQ(text, "mapping worker exceeded its time limit of 1 s (MapTimeLimit in tofa.conf)");
}

TEST(MapWorker, CrashIsContained) {
  Job job;
  FakeWorker crashing("kill -SEGV $$");
  const std::string text = error_text([&] { map_in_worker(job.request, "tofa", crashing.limits()); });
  EXPECT_NE(text.find("mapping worker crashed (signal 11"), std::string::npos) << text;
  // The next job gets a new worker.
  const Placement here = tofa::make_mapper("tofa")->map(job.request);
  EXPECT_EQ(map_in_worker(job.request, "tofa", real_worker()), here);
}

TEST(MapWorker, HangIsKilledAtTheTimeLimit) {
  Job job;
  FakeWorker hanging("exec sleep 60");
  const std::string text =
      error_text([&] { map_in_worker(job.request, "tofa", hanging.limits(0.5)); });
  EXPECT_EQ(text, "mapping worker exceeded its time limit of 1 s (MapTimeLimit in tofa.conf)");
}

TEST(MapWorker, GarbledOrMissingAnswersAreErrors) {
  Job job;
  FakeWorker garbled("printf '\\004\\0\\0\\0\\0\\0\\0\\0OK\\001\\002'; sleep 5");
  EXPECT_NE(error_text([&] { map_in_worker(job.request, "tofa", garbled.limits()); })
                .find("mapping worker: mapping job: truncated"),
            std::string::npos);
  FakeWorker silent("exit 0");
  EXPECT_EQ(error_text([&] { map_in_worker(job.request, "tofa", silent.limits()); }),
            "mapping worker exited with status 0 before answering");
  EXPECT_NE(error_text([&] { map_in_worker(job.request, "tofa", {"/nonexistent/worker", 64, 1}); })
                .find("cannot start the mapping worker /nonexistent/worker"),
            std::string::npos);
}

TEST(MapJobCodec, OtherJobsLinkCostsTravelWithTheirByteScale) {
  Job job;
  std::vector<double> extra(job.torus.link_slot_count(), 0.0);
  extra[3] = 2.5;
  job.request.fault_cost.link_extra = std::make_shared<const std::vector<double>>(extra);
  job.request.fault_cost.link_extra_bytes = 400;
  job.request.fault_cost.shared_links = true;
  const auto decoded = tofa::service::decode_map_job(tofa::service::encode_map_job(job.request, "auto"));
  ASSERT_TRUE(decoded->request.fault_cost.link_extra);
  EXPECT_EQ(*decoded->request.fault_cost.link_extra, extra);
  EXPECT_EQ(decoded->request.fault_cost.link_extra_bytes, 400);
  EXPECT_TRUE(decoded->request.fault_cost.shared_links);
}

// The running set's link costs travel to a worker once: the next jobs name
// the table it kept, each with its own links' costs over it.
TEST(MapJobCodec, AWorkerKeepsTheLinkCostsItWasSent) {
  using tofa::service::decode_map_job;
  using tofa::service::encode_map_job;
  Job job;
  std::vector<double> extra(job.torus.link_slot_count(), 0.0);
  for (std::size_t l = 0; l < extra.size(); l += 3) extra[l] = 1.0 + static_cast<double>(l);
  job.request.fault_cost.link_extra = std::make_shared<const std::vector<double>>(extra);
  job.request.fault_cost.link_extra_bytes = 50;
  tofa::service::KeptLinkCosts kept;
  EXPECT_EQ(*decode_map_job(encode_map_job(job.request, "auto"), &kept)->request.fault_cost.link_extra, extra);
  ASSERT_TRUE(kept.table);
  EXPECT_EQ(*kept.table, extra);

  const tofa::LinkCostPatch own = {{0, 0.0}, {4, 7.5}};
  const std::string by_name = encode_map_job(job.request, "auto", own, true);
  EXPECT_LT(by_name.size(), encode_map_job(job.request, "auto").size() / 2);
  std::vector<double> patched = extra;
  patched[0] = 0.0;
  patched[4] = 7.5;
  EXPECT_EQ(*decode_map_job(by_name, &kept)->request.fault_cost.link_extra, patched);
  EXPECT_EQ(*kept.table, extra);  // the patch is the job's alone

  tofa::service::KeptLinkCosts none;
  EXPECT_NE(error_text([&] { decode_map_job(by_name, &none); }).find("none kept for this machine"),
            std::string::npos);
  EXPECT_NE(error_text([&] { decode_map_job(encode_map_job(job.request, "auto", {{1 << 20, 1.0}}), &kept); })
                .find("own link cost 0"),
            std::string::npos);
}

TEST(MapJobCodec, WhoSendsTravelsWithTheGraph) {
  Job job;
  for (const tofa::Directions directions : {tofa::Directions::Kept, tofa::Directions::Halved}) {
    job.graph = CommGraph::from_directed_edges(3, {{0, 1, 6, 1}, {1, 0, 2, 1}, {2, 1, 5, 1}},
                                               directions);
    const auto decoded = tofa::service::decode_map_job(tofa::service::encode_map_job(job.request, "auto"));
    EXPECT_EQ(decoded->graph.has_directions(), job.graph.has_directions());
    EXPECT_EQ(decoded->graph.bytes(), job.graph.bytes());
    for (std::int64_t k = 0; k < job.graph.offsets().back(); ++k)
      EXPECT_EQ(decoded->graph.sent(k), job.graph.sent(k)) << k;
  }
}

TEST(MapJobCodec, RoundTripAndEveryTruncationIsRefused) {
  Job job;
  job.request.parameters["place"] = "tofa";
  const std::string bytes = tofa::service::encode_map_job(job.request, "mims");
  const auto decoded = tofa::service::decode_map_job(bytes);
  EXPECT_EQ(decoded->strategy, "mims");
  EXPECT_EQ(decoded->request.candidate_nodes, job.request.candidate_nodes);
  EXPECT_EQ(decoded->request.outage, job.request.outage);
  EXPECT_EQ(decoded->request.parameters, job.request.parameters);
  EXPECT_EQ(decoded->graph.undirected_edges().size(), job.graph.undirected_edges().size());
  EXPECT_EQ(decoded->topology->dims(), job.torus.dims());
  for (std::size_t size = 0; size < bytes.size(); size += 7)
    EXPECT_THROW(tofa::service::decode_map_job(bytes.substr(0, size)), tofa::Error) << size;
  EXPECT_THROW(tofa::service::decode_map_job(bytes + "x"), tofa::Error);
}

}  // namespace
