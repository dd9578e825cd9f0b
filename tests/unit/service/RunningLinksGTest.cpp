// Issue 37 (items 3, 4, 5): the service's link loads of the running jobs
// stay what a recount from their recorded placements gives, after every
// event: jobs starting, ending, a placement changing; LINKS and JOB report
// them; a new job's placement keeps off them.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.hpp"
#include "graph/graph.hpp"
#include "metrics/metrics.hpp"
#include "service/protocol.hpp"
#include "service/request_handler.hpp"
#include "service/running_links.hpp"
#include "service/service_state.hpp"
#include "service/tofa_conf.hpp"

namespace {

using namespace tofa::service;
using LinkMap = std::map<std::pair<std::string, std::string>, double>;

constexpr uid_t kAdmin = 500;
constexpr uid_t kAlice = 1000;
const char* const kRing = "0 1 100\n1 2 100\n2 3 100\n3 0 100\n";

class RunningLinksTest : public ::testing::Test {
 protected:
  void SetUp() override { start(""); }
  void start(const std::string& extra_conf) {
    // A budget that a sanitizer's slowdown leaves enough of to leave a
    // running job's links (auto's searches stop at it).
    std::istringstream in(std::string("Dims=4x4x4\nNodeName=n[0-63]\nPlacementBudget=2000\n") + extra_conf +
                          tofa_test::map_worker_line());
    TofaConf parsed = parse_tofa_conf(in, "tofa.conf");
    char dir[] = "/tmp/tofa-running-links.XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    state_ = std::make_unique<ServiceState>(parsed.settings, std::move(parsed.topology), kAdmin, dir_,
                                            [](int, const std::string&) {});
    ASSERT_EQ(handle_request(*state_, "UPLOAD_GRAPH name=ring\n" + std::string(kRing), kAlice),
              "OK id=g1 tasks=4 existing=0");
    ring_ = tofa::CommGraph::from_directed_edges(
        4, {{0, 1, 100, 1}, {1, 2, 100, 1}, {2, 3, 100, 1}, {3, 0, 100, 1}}, tofa::Directions::Kept);
  }
  void TearDown() override { remove_dir(); }
  void remove_dir() { std::system(("rm -rf " + dir_).c_str()); }

  void record(unsigned job, const std::string& nodes, const std::string& graph = "g1") {
    const std::string reply = handle_request(
        *state_, "RECORD graph=" + graph + " job=" + std::to_string(job) + " nodes=" + nodes, kAlice);
    ASSERT_EQ(reply.rfind("OK", 0), 0u) << reply;
  }
  /// The ring placed by auto on the running ring's row (n0-n3) or a quiet one (n16-n19).
  void place_ring(unsigned job) {
    const std::string reply = handle_request(
        *state_, "PLACE graph=g1 job=" + std::to_string(job) + " candidates=n[0-3],n[16-19] slots=1", kAlice);
    EXPECT_EQ(reply.rfind("OK job=" + std::to_string(job) + " strategy=auto ", 0), 0u) << reply;
  }
  /// LINKS top=0, as (from, to) -> bytes.
  LinkMap reported() {
    const Message m = parse_message(handle_request(*state_, "LINKS top=0", kAlice));
    LinkMap links;
    std::istringstream body(m.body);
    for (std::string line; std::getline(body, line);) {
      EXPECT_EQ(line.rfind("link ", 0), 0u) << line;
      std::map<std::string, std::string> link = parse_fields(line.substr(5));
      links[{link["from"], link["to"]}] = std::stod(link["bytes"]);
    }
    return links;
  }
  /// The same, recounted from the placements `tofactl job` shows.
  LinkMap recount(const std::vector<unsigned>& running) {
    const tofa::Topology& topology = state_->topology();
    std::vector<double> total(topology.link_slot_count(), 0.0);
    for (unsigned job : running) {
      const std::string reply = handle_request(*state_, "JOB job=" + std::to_string(job), kAlice);
      if (reply.rfind("ERROR no placement recorded", 0) == 0) continue;
      const Message m = parse_message(reply);
      std::vector<int> placement;
      for (const std::string& name : split_nodes(m.field("nodes"))) placement.push_back(topology.node_by_name(name));
      const std::vector<double> loads = tofa::link_loads(ring_, topology, placement);
      for (std::size_t l = 0; l < loads.size(); ++l) total[l] += loads[l];
    }
    LinkMap links;
    for (std::size_t l = 0; l < total.size(); ++l)
      if (total[l] > 0) {
        const tofa::Link link = topology.link_of(static_cast<int>(l));
        links[{topology.node_name(link.from), topology.node_name(link.to)}] = total[l];
      }
    return links;
  }
  void expect_exact(const std::vector<unsigned>& running, const char* after) {
    state_->set_running_jobs(running);
    const LinkMap got = reported(), want = recount(running);
    ASSERT_EQ(got.size(), want.size()) << after;
    for (const auto& [link, bytes] : want) {
      ASSERT_TRUE(got.count(link)) << after << ": " << link.first << "->" << link.second;
      EXPECT_NEAR(got.at(link), bytes, 1e-9 * bytes) << after;
    }
  }

  std::string dir_;
  std::unique_ptr<ServiceState> state_;
  tofa::CommGraph ring_;
};

TEST_F(RunningLinksTest, LoadsEqualARecountAfterEveryEvent) {
  EXPECT_TRUE(reported().empty());  // slurmctld has not said which jobs run
  record(50, "n0,n1,n2,n3");
  record(51, "n1,n2,n5,n6");
  expect_exact({50}, "job 50 starts");
  expect_exact({50, 51}, "job 51 starts");
  record(50, "n16,n17,n18,n19");
  expect_exact({50, 51}, "job 50's placement changes");
  expect_exact({51}, "job 50 ends");
  expect_exact({}, "every job ends");
  record(52, "n0,n1,n2,n3");
  expect_exact({51, 52, 99}, "job 52 starts; job 99 has no record");
}

TEST_F(RunningLinksTest, JobSaysHowMuchOfItsTrafficSharesLinks) {
  record(50, "n0,n1,n2,n3");
  record(51, "n1,n2,n5,n6");
  record(52, "n32,n33,n34,n35");
  EXPECT_EQ(parse_message(handle_request(*state_, "JOB job=50", kAlice)).field_or("shared_traffic", "none"),
            "none");
  state_->set_running_jobs({50, 51, 52});
  const auto shared = [&](unsigned job) {
    return std::stod(parse_message(handle_request(*state_, "JOB job=" + std::to_string(job), kAlice))
                         .field("shared_traffic"));
  };
  EXPECT_GT(shared(50), 0.0);  // n1-n2 carries both 50's and 51's traffic
  EXPECT_LT(shared(50), 1.0);
  EXPECT_EQ(shared(52), 0.0);  // alone on its plane
  const Message top = parse_message(handle_request(*state_, "LINKS top=1", kAlice));
  EXPECT_EQ(top.field("count"), "1");
  EXPECT_NE(top.body.find("jobs=2"), std::string::npos) << top.body;  // the shared link is the busiest
  EXPECT_EQ(handle_request(*state_, "LINKS top=x", kAlice), "ERROR top=x: expected 0 to 16777216");
}

// A new ring fits on the running ring's row or on a quiet row of the same
// shape: seeing the running jobs (the default, InterferenceWeight=1) the
// service places it on the quiet one, blind (0) on the running ring's links.
TEST_F(RunningLinksTest, ANewJobSeeingTheRunningJobsKeepsOffTheirLinks) {
  const auto shared_traffic_of_new_ring = [&] {
    record(50, "n0,n1,n2,n3");
    state_->set_running_jobs({50});
    place_ring(60);
    state_->set_running_jobs({50, 60});
    return parse_message(handle_request(*state_, "JOB job=60", kAlice)).field("shared_traffic");
  };
  EXPECT_EQ(shared_traffic_of_new_ring(), "0");

  state_.reset();
  remove_dir();
  start("InterferenceWeight=0\n");
  EXPECT_EQ(shared_traffic_of_new_ring(), "1");
}

// The running jobs' link costs are made once per running set: a new set
// (here the ring starting after a placement that met none) is seen by the
// next placement.
TEST_F(RunningLinksTest, APlacementSeesTheRunningSetOfItsTime) {
  state_->set_running_jobs({});
  place_ring(59);  // nothing runs: no link costs, made and kept
  record(50, "n0,n1,n2,n3");
  state_->set_running_jobs({50});
  place_ring(60);
  state_->set_running_jobs({50, 60});
  EXPECT_EQ(parse_message(handle_request(*state_, "JOB job=60", kAlice)).field("shared_traffic"), "0");
}

TEST_F(RunningLinksTest, SharedLinksCountBothDirections) {
  // Two exchanging pairs on the diagonals of the square n0 n1 n5 n4:
  // dimension-ordered routes take each pair round the square, one pair each way.
  const auto run_diagonals = [&] {
    const std::string upload =
        handle_request(*state_, "UPLOAD_GRAPH name=pair\n0 1 100\n1 0 100\n", kAlice);
    ASSERT_EQ(upload.rfind("OK id=g2 ", 0), 0u) << upload;
    record(50, "n0,n5", "g2");
    record(51, "n1,n4", "g2");
    state_->set_running_jobs({50, 51});
  };
  const auto shared = [&] {
    return parse_message(handle_request(*state_, "JOB job=50", kAlice)).field("shared_traffic");
  };
  run_diagonals();
  EXPECT_EQ(shared(), "0");
  EXPECT_EQ(reported().size(), 8u);  // each direction its own link, one job each

  state_.reset();
  remove_dir();
  start("LinkSharing=shared\n");
  run_diagonals();
  EXPECT_EQ(shared(), "1");
  const LinkMap links = reported();
  ASSERT_EQ(links.size(), 4u);  // each link once, with both directions' bytes
  const double one_way = links.begin()->second / 2;
  for (const auto& [link, bytes] : links) EXPECT_EQ(bytes, 2 * one_way) << link.first << "-" << link.second;
  EXPECT_GT(one_way, 0);
  EXPECT_NE(parse_message(handle_request(*state_, "LINKS top=1", kAlice)).body.find("jobs=2"),
            std::string::npos);
}

// A running job placed again sees the running set's costs with its own
// bytes taken off its links: over the shared table as a patch, or in a copy.
TEST(RunningLinks, ARunningJobPlacedAgainSeesOnlyTheOthersOnItsLinks) {
  const tofa::Topology topology = tofa::Topology::from_spec("torus:4x4x4");
  auto ring = std::make_shared<const tofa::CommGraph>(tofa::CommGraph::from_directed_edges(
      4, {{0, 1, 100, 1}, {1, 2, 100, 1}, {2, 3, 100, 1}, {3, 0, 100, 1}}, tofa::Directions::Kept));
  tofa::RunningLinks links;
  links.update(topology, {{50, {0, 1, 2, 3}, ring}, {51, {1, 2, 17, 18}, ring}});
  tofa::FaultCost shared_table, patched, copied;
  links.add_interference_to(shared_table, topology, 1.0, std::nullopt);
  tofa::LinkCostPatch own;
  links.add_interference_to(patched, topology, 1.0, 51u, &own);
  links.add_interference_to(copied, topology, 1.0, 51u);
  ASSERT_TRUE(shared_table.link_extra && copied.link_extra);
  EXPECT_EQ(patched.link_extra, shared_table.link_extra);  // the same table, not a copy
  EXPECT_EQ(*tofa::patched_link_costs(patched.link_extra, own), *copied.link_extra);
  ASSERT_EQ(own.size(), links.job_links(51).size());
  const std::vector<double> others = links.loads(51u);
  const int both = topology.link_id(topology.route(1, 2).links.at(0));  // the rings' common link
  for (const auto& [link, cost] : own) {
    EXPECT_DOUBLE_EQ(cost, others[link] / shared_table.link_extra_bytes) << link;
    EXPECT_EQ(cost > 0, link == both) << link;
  }
}

// On links shared both ways the running set's link criticality comes with
// its link costs (made once per set), for a job not running and for a
// running one placed again (its own flows left out).
TEST(RunningLinks, OnSharedLinksTheCostsCarryTheCriticalLinks) {
  const tofa::Topology topology = tofa::Topology::from_spec("torus:4x4x4");
  auto ring = std::make_shared<const tofa::CommGraph>(tofa::CommGraph::from_directed_edges(
      4, {{0, 1, 100, 1}, {1, 2, 100, 1}, {2, 3, 100, 1}, {3, 0, 100, 1}}, tofa::Directions::Kept));
  tofa::RunningLinks links;
  links.update(topology, {{50, {0, 1, 2, 3}, ring}});
  const int used = topology.link_id(topology.route(0, 1).links.at(0));
  for (bool shared : {false, true}) {
    tofa::FaultCost cost;
    cost.shared_links = shared;
    links.add_interference_to(cost, topology, 1.0, std::nullopt);
    ASSERT_TRUE(cost.link_extra);
    ASSERT_EQ(static_cast<bool>(cost.link_criticality), shared);
    if (shared) {
      EXPECT_GT((*cost.link_criticality)[used], 0.0);
      EXPECT_GT((*cost.link_criticality)[topology.reverse_link_id(used)], 0.0);
    }
  }
  tofa::FaultCost again;
  again.shared_links = true;
  links.add_interference_to(again, topology, 1.0, 50u);  // nothing else runs
  EXPECT_FALSE(again.link_extra);
  EXPECT_FALSE(again.link_criticality);
}

}  // namespace
