// The service's state and protocol without the network: requests go to
// handle_request with a synthetic uid, as if munge had vouched for it.
#include <gtest/gtest.h>

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "service/placement_store.hpp"
#include "service/protocol.hpp"
#include "service/request_handler.hpp"
#include "service/placement.hpp"
#include "service/service_state.hpp"
#include "service/srun_claims.hpp"
#include "service/state_files.hpp"

namespace {

using namespace tofa::service;

constexpr uid_t kAdmin = 500;  // SlurmUser
constexpr uid_t kAlice = 1000;
constexpr uid_t kBob = 1001;

// 4x4x4 torus, nodes n0..n63 in id order: n5 = (1,1,0), n8 = (0,2,0).
const char* const kConf =
    "Dims=4x4x4\nNodeName=n[0-63]\nMaxGraphBytes=2000\nMaxGraphsPerUser=2\n";

// A ring of 4 tasks, 100 bytes per edge (edge-list format).
const char* const kRing = "0 1 100\n1 2 100\n2 3 100\n3 0 100\n";

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/tofa-state-XXXXXX";
    if (!mkdtemp(pattern)) std::abort();
    path_ = pattern;
  }
  ~TempDir() { std::system(("rm -rf " + path_).c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* entry = readdir(d))
      if (entry->d_name[0] != '.') names.push_back(entry->d_name);
    closedir(d);
  }
  return names;
}

class ServiceStateTest : public ::testing::Test {
 protected:
  std::unique_ptr<ServiceState> open_state(const std::string& conf = kConf) {
    std::istringstream in(conf + tofa_test::map_worker_line());
    TofaConf parsed = parse_tofa_conf(in, "tofa.conf");
    return std::make_unique<ServiceState>(parsed.settings, std::move(parsed.topology), kAdmin,
                                          dir_.path(), [this](int level, const std::string& m) {
                                            // The state writer thread logs too.
                                            const std::lock_guard<std::mutex> hold(log_lock_);
                                            log_.push_back(std::to_string(level) + " " + m);
                                          });
  }
  std::string ask(ServiceState& state, uid_t uid, const std::string& request) {
    return handle_request(state, request, uid);
  }
  std::string upload(ServiceState& state, uid_t uid, const std::string& name,
                     const std::string& text) {
    return ask(state, uid, "UPLOAD_GRAPH name=" + encode_value(name) + "\n" + text);
  }
  /// Alice's graph g1 placed for `job` by default-slurm; the reply must say so.
  void place_job(ServiceState& state, unsigned job, const std::string& candidates, int slots) {
    const std::string reply =
        ask(state, kAlice, "PLACE graph=g1 job=" + std::to_string(job) +
                               " strategy=default-slurm candidates=" + candidates +
                               " slots=" + std::to_string(slots));
    ASSERT_EQ(reply.rfind("OK job=" + std::to_string(job) + " ", 0), 0u) << reply;
  }
  /// The scheduler's node choice for Alice's job on `candidates`.
  PlacementRecord choose_nodes(ServiceState& state, unsigned job, const std::string& candidates) {
    PlaceRequest request;
    request.uid = kAlice;
    request.graph_id = "g1";
    request.job = job;
    request.from_slurmctld = true;
    request.candidates = candidates;
    return state.choose_nodes(request);
  }
  /// The job's record once `done` holds for it (the mapping threads work
  /// meanwhile), or as it is after 10 s.
  template <typename Done>
  PlacementRecord placement_once(ServiceState& state, unsigned job, const Done& done) {
    PlacementRecord record = state.job_placement(job, kAlice);
    for (int i = 0; i < 10000 && !done(record); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      record = state.job_placement(job, kAlice);
    }
    return record;
  }
  bool logged(const std::string& part) const {
    const std::lock_guard<std::mutex> hold(log_lock_);
    for (const std::string& line : log_)
      if (line.find(part) != std::string::npos) return true;
    return false;
  }

  TempDir dir_;
  mutable std::mutex log_lock_;
  std::vector<std::string> log_;
};

TEST_F(ServiceStateTest, UploadPlaceAndRead) {
  auto state = open_state();
  EXPECT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  // Block distribution over n5..n8: hops 1, 1, 2 (n7->n8 wraps x and moves y), 2;
  // hop-bytes = 100 * 6 = 600.
  const std::string placed =
      ask(*state, kAlice, "PLACE graph=g1 job=7 strategy=default-slurm candidates=n[5-8] slots=1");
  EXPECT_EQ(placed.rfind("OK job=7 strategy=default-slurm nodes=n5,n6,n7,n8 tasks=4 nodes_used=4 "
                         "total_bytes=400 hop_bytes=600 ",
                         0),
            0u)
      << placed;
  EXPECT_NE(placed.find(" max_hops=2 "), std::string::npos) << placed;
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=7"), "OK job=7 graph=g1 nodes=n5,n6,n7,n8");
  EXPECT_EQ(ask(*state, kAdmin, "PLACEMENT job=7"), "OK job=7 graph=g1 nodes=n5,n6,n7,n8");
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=8"), "ERROR no placement recorded for job 8");
  const std::string job = ask(*state, kAlice, "JOB job=7");
  EXPECT_EQ(job.rfind("OK job=7 uid=1000 graph=g1 time=", 0), 0u) << job;
  // A direct srun: nothing recorded, tasks must match.
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 job=none tasks=4 strategy=default-slurm "
                                "candidates=n9,n10 slots=2")
                .rfind("OK strategy=default-slurm nodes=n9,n9,n10,n10 ", 0),
            0u);
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 tasks=5"),
            "ERROR graph g1 has 4 tasks, the request asks for 5");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 candidates=n5,x9"),
            "ERROR candidate node x9 is not in the topology");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 strategy=nope").rfind("ERROR unknown strategy", 0),
            0u);
}

TEST_F(ServiceStateTest, OtherUsersCannotUseOrSeeAGraph) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  EXPECT_EQ(ask(*state, kBob, "PLACE graph=g1 job=9"), "ERROR unknown graph id g1");
  EXPECT_EQ(ask(*state, kBob, "PLACE graph=g77"), "ERROR unknown graph id g77");  // same text
  EXPECT_EQ(ask(*state, kBob, "GRAPHS"), "OK count=0");
  EXPECT_EQ(ask(*state, kBob, "DELETE_GRAPH id=g1"), "ERROR unknown graph id g1");
  EXPECT_EQ(ask(*state, kAdmin, "GRAPHS").rfind("OK count=1\ngraph id=g1 uid=1000 name=ring.mat "
                                                "tasks=4 bytes=32 ",
                                                0),
            0u);
  EXPECT_EQ(ask(*state, 0, "GRAPHS").rfind("OK count=1\n", 0), 0u);  // root is an admin too
  EXPECT_THROW(state->graph_task_count("g1", kBob), tofa::Error);
  EXPECT_EQ(state->graph_task_count("g1", kAlice), 4);
  // Bob cannot take over Alice's job record either.
  ASSERT_EQ(ask(*state, kAlice, "PLACE graph=g1 job=7").rfind("OK", 0), 0u);
  ASSERT_EQ(upload(*state, kBob, "ring.mat", kRing), "OK id=g2 tasks=4 existing=0");
  EXPECT_EQ(ask(*state, kBob, "PLACE graph=g2 job=7"), "ERROR job 7 belongs to another user");
  EXPECT_EQ(ask(*state, kBob, "PLACEMENT job=7"), "ERROR no placement recorded for job 7");
}

TEST_F(ServiceStateTest, OnlyAdministratorsOverrideOutages) {
  auto state = open_state();
  EXPECT_EQ(ask(*state, kAlice, "SET_OUTAGE node=n3 p=0.5"),
            "ERROR permission denied: set-outage needs root or uid 500 (SlurmUser), not uid 1000");
  EXPECT_EQ(ask(*state, kAdmin, "SET_OUTAGE node=n3 p=0.5"), "OK");
  EXPECT_EQ(ask(*state, kAdmin, "SET_OUTAGE node=n3 p=1.5"),
            "ERROR bad p '1.5': expected a probability in [0, 1]");
  EXPECT_EQ(ask(*state, kAdmin, "SET_OUTAGE node=zz p=0.5"), "ERROR unknown node zz");
  EXPECT_EQ(state->node_outage("n3"), 0.5);
  const std::string nodes = ask(*state, kAlice, "NODES");
  EXPECT_NE(nodes.find("\nnode name=n3 state=unpolled p=0.5 source=override "), std::string::npos);
  EXPECT_EQ(ask(*state, kAlice, "CLEAR_OUTAGE node=n3"),
            "ERROR permission denied: clear-outage needs root or uid 500 (SlurmUser), not uid "
            "1000");
  EXPECT_EQ(ask(*state, 0, "CLEAR_OUTAGE node=n3"), "OK");
  EXPECT_EQ(ask(*state, 0, "CLEAR_OUTAGE node=n3"), "ERROR node n3 has no outage override");
  EXPECT_EQ(state->node_outage("n3"), 0);
}

TEST_F(ServiceStateTest, OversizedAndMalformedGraphs) {
  auto state = open_state();
  // Over MaxGraphBytes=2000: refused before parsing (the text is not a graph).
  EXPECT_EQ(upload(*state, kAlice, "big.mat", std::string(2001, 'x')),
            "ERROR big.mat: 2001 bytes exceed the limit of 2000 bytes (MaxGraphBytes in "
            "tofa.conf)");
  // A parse error comes back verbatim, named after the client's file name.
  const std::string bad = "3\n0 1 2\n0 x 1\n1 2 0\n";
  std::string expected;
  try {
    std::istringstream in(bad);
    tofa::parse_graph(in, "comm.mat");
  } catch (const tofa::ParseError& e) {
    expected = std::string("ERROR ") + e.what();
  }
  ASSERT_EQ(expected.rfind("ERROR comm.mat:3:", 0), 0u) << expected;
  EXPECT_EQ(upload(*state, kAlice, "comm.mat", bad), expected);
  // A few bytes that name a huge task id: refused at its line by
  // MaxGraphTasks (default 65536) before the graph is built.
  EXPECT_EQ(upload(*state, kAlice, "tiny.txt", "0 1 5\n1 16777215 5\n"),
            "ERROR tiny.txt:2:3: task id 16777215 means 16777216 tasks, expected at most 65536 "
            "(MaxGraphTasks in tofa.conf)");
  EXPECT_EQ(ask(*state, kAlice, "GRAPHS"), "OK count=0");
}

TEST_F(ServiceStateTest, QuotaEvictsLeastRecentlyUsedAndDuplicatesAreShared) {
  auto state = open_state();  // MaxGraphsPerUser=2
  ASSERT_EQ(upload(*state, kAlice, "a", kRing), "OK id=g1 tasks=4 existing=0");
  EXPECT_EQ(upload(*state, kAlice, "a-again", kRing), "OK id=g1 tasks=4 existing=1");
  ASSERT_EQ(upload(*state, kAlice, "b", "0 1 5\n"), "OK id=g2 tasks=2 existing=0");
  usleep(2000);
  ASSERT_EQ(ask(*state, kAlice, "PLACE graph=g1").rfind("OK", 0), 0u);  // g1 now newer than g2
  ASSERT_EQ(upload(*state, kAlice, "c", "0 2 5\n"), "OK id=g3 tasks=3 existing=0");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g2"), "ERROR unknown graph id g2");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1").rfind("OK", 0), 0u);
  EXPECT_TRUE(logged("graph g2 of uid 1000 evicted (MaxGraphsPerUser=2)"));
}

// Issue 11 (7): a held job's graph was evicted by later uploads and the job
// then ran with Slurm's layout without a word to its user. The job lists
// here are read a while after the uploads (later than kReferenceGrace).
TEST_F(ServiceStateTest, GraphsOfLiveJobsAreNeverEvictedAndAFullQuotaIsAnError) {
  auto state = open_state();  // MaxGraphsPerUser=2
  const double later = now_seconds() + 2 * ServiceState::kReferenceGrace;
  ASSERT_EQ(upload(*state, kAlice, "a", kRing), "OK id=g1 tasks=4 existing=0");
  ASSERT_EQ(upload(*state, kAlice, "b", "0 1 5\n"), "OK id=g2 tasks=2 existing=0");
  state->set_referenced_graphs({"g1"}, later);
  ASSERT_EQ(upload(*state, kAlice, "c", "0 2 5\n"), "OK id=g3 tasks=3 existing=0");  // g2 goes
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g2"), "ERROR unknown graph id g2");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1").rfind("OK", 0), 0u);
  state->set_referenced_graphs({"g1", "g3"}, later);
  EXPECT_EQ(upload(*state, kAlice, "d", "0 3 5\n"),
            "ERROR graph quota reached: all your 2 graphs are used by pending or running jobs "
            "or were used in the last 30 s (MaxGraphsPerUser in tofa.conf); a new one can be "
            "stored once one of those jobs ends");
  EXPECT_EQ(upload(*state, kAlice, "c-again", "0 2 5\n"), "OK id=g3 tasks=3 existing=1");
  EXPECT_EQ(upload(*state, kBob, "d", "0 3 5\n").rfind("OK", 0), 0u);  // per user
  state->set_referenced_graphs({"g3"}, later);
  EXPECT_EQ(upload(*state, kAlice, "d", "0 3 5\n").rfind("OK", 0), 0u);  // g1 goes
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1"), "ERROR unknown graph id g1");
}

// Issue 39 (5): 66 held jobs submitted faster than slurmctld pushes its job
// list: a graph uploaded just before or after the list was read may belong
// to a job the list does not have yet, so the quota refuses instead of
// evicting it.
TEST_F(ServiceStateTest, GraphsUsedSinceTheJobListWasReadAreKept) {
  auto state = open_state();  // MaxGraphsPerUser=2
  state->set_referenced_graphs({});
  ASSERT_EQ(upload(*state, kAlice, "a", kRing), "OK id=g1 tasks=4 existing=0");
  ASSERT_EQ(upload(*state, kAlice, "b", "0 1 5\n"), "OK id=g2 tasks=2 existing=0");
  EXPECT_EQ(upload(*state, kAlice, "c", "0 2 5\n").rfind("ERROR graph quota reached", 0), 0u);
  state->set_referenced_graphs({}, now_seconds() + ServiceState::kReferenceGrace / 2);
  EXPECT_EQ(upload(*state, kAlice, "c", "0 2 5\n").rfind("ERROR graph quota reached", 0), 0u);
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1").rfind("OK", 0), 0u);
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g2").rfind("OK", 0), 0u);
  state->set_referenced_graphs({"g2"}, now_seconds() + 2 * ServiceState::kReferenceGrace);
  EXPECT_EQ(upload(*state, kAlice, "c", "0 2 5\n"), "OK id=g3 tasks=3 existing=0");  // g1 goes
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1"), "ERROR unknown graph id g1");
}

TEST_F(ServiceStateTest, GarbageNeverCrashes) {
  auto state = open_state();
  EXPECT_EQ(ask(*state, kAlice, ""), "ERROR empty request: expected a verb such as PING");
  EXPECT_EQ(ask(*state, kAlice, "FLY"),
            "ERROR unknown verb FLY: expected PING, UPLOAD_GRAPH, GRAPHS, DELETE_GRAPH, NODES, "
            "SET_OUTAGE, CLEAR_OUTAGE, PLACE, RECORD, PLACEMENT, JOB or LINKS");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph"), "ERROR expected 'key=value', found 'graph'");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 graph=g2"), "ERROR field graph is given twice");
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=abc"),
            "ERROR bad job 'abc': expected an integer in 1..4294967295");
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT"), "ERROR missing field job");
  EXPECT_EQ(ask(*state, kAlice, "PING name=%G1"), "ERROR bad escape in '%G1': expected %XX");
  std::mt19937 random(7);
  for (int i = 0; i < 300; ++i) {
    std::string junk(random() % 64, '\0');
    for (char& c : junk) c = static_cast<char>(random());
    const std::string verbs[] = {"", "PLACE ", "UPLOAD_GRAPH name=x\n", "SET_OUTAGE "};
    const std::string reply = ask(*state, i % 2 ? kAdmin : kAlice, verbs[i % 4] + junk);
    EXPECT_TRUE(reply.rfind("ERROR ", 0) == 0 || reply.rfind("OK", 0) == 0) << reply;
    EXPECT_EQ(reply.find('\n', 0) == std::string::npos || reply.rfind("OK", 0) == 0, true);
  }
  EXPECT_EQ(ask(*state, kAlice, "PING"), "OK service=tofa protocol=1 uid=1000 admin=0");
}

TEST_F(ServiceStateTest, StateSurvivesARestart) {
  {
    auto state = open_state();
    ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
    place_job(*state, 7, "n[5-8]", 1);
    state->set_nodes({{"n1", "127.0.0.1", 17001}, {"n2", "", 0}});
    state->record_heartbeats({{"n1", true}, {"n2", true}}, 1000);
    state->record_heartbeats({{"n1", true}, {"n2", false}}, 1010);
    ASSERT_EQ(ask(*state, kAdmin, "SET_OUTAGE node=n40 p=0.25"), "OK");
    state->save_all();
  }
  auto state = open_state();
  EXPECT_EQ(state->graph_task_count("g1", kAlice), 4);
  EXPECT_THROW(state->graph_task_count("g1", kBob), tofa::Error);  // owner survives too
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=7"), "OK job=7 graph=g1 nodes=n5,n6,n7,n8");
  EXPECT_EQ(state->job_placement(7, std::nullopt).metrics.hop_bytes, 600);
  // n2: 1 of 2 heartbeats missed (window model) -> 0.5; n40 keeps its override.
  EXPECT_EQ(state->node_outage("n2"), 0.5);
  EXPECT_EQ(state->node_outage("n1"), 0);
  EXPECT_EQ(state->node_outage("n40"), 0.25);
  const std::string nodes = ask(*state, kAlice, "NODES");
  EXPECT_NE(nodes.find("node name=n2 state=unpolled p=0.5 source=window:100 heartbeat=1010 "
                       "answer=1000 answered=1 missed=1"),
            std::string::npos)
      << nodes;
  // Ids are never reused.
  EXPECT_EQ(upload(*state, kAlice, "two", "0 1 1\n"), "OK id=g2 tasks=2 existing=0");
}

TEST_F(ServiceStateTest, CorruptFilesAreMovedAsideAndTheRestLoads) {
  {
    auto state = open_state();
    ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
    ASSERT_EQ(upload(*state, kAlice, "pair", "0 1 9\n"), "OK id=g2 tasks=2 existing=0");
    ASSERT_EQ(ask(*state, kAlice, "PLACE graph=g1 job=7").rfind("OK", 0), 0u);
    ASSERT_EQ(ask(*state, kAdmin, "SET_OUTAGE node=n4 p=0.5"), "OK");
    state->save_all();
  }
  // An unreadable first line costs the whole file (a bad record only itself:
  // StateRecoveryGTest).
  std::ofstream(dir_.path() + "/placements.state") << "tofa-placemnts 1\nplacement job=x\n";
  std::ofstream(dir_.path() + "/graphs/g2.graph") << "not a graph\n";
  auto state = open_state();
  EXPECT_TRUE(logged("moved corrupt state file " + dir_.path() + "/placements.state to " +
                     dir_.path() + "/placements.state.corrupt."));
  EXPECT_TRUE(logged("state file " + dir_.path() + "/placements.state:1:0: expected '# "
                     "tofa-state placements 2' or 'tofa-placements 1'"));
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g2").rfind("ERROR graph g2 could not be restored", 0),
            0u);  // graphs are parsed when first used after a restart
  EXPECT_TRUE(logged("graph g2 dropped: "));
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=7"), "ERROR no placement recorded for job 7");
  EXPECT_EQ(state->graph_task_count("g1", kAlice), 4);       // the rest loaded
  EXPECT_THROW(state->graph_task_count("g2", kAlice), tofa::Error);
  EXPECT_EQ(state->node_outage("n4"), 0.5);
  int corrupt = 0;
  for (const std::string& name : files_in(dir_.path()))
    corrupt += name.rfind("placements.state.corrupt.", 0) == 0;
  EXPECT_EQ(corrupt, 1);
  int corrupt_graphs = 0;
  for (const std::string& name : files_in(dir_.path() + "/graphs"))
    corrupt_graphs += name.rfind("g2.graph.corrupt.", 0) == 0;
  EXPECT_EQ(corrupt_graphs, 1);
  // The service keeps working and writes a fresh placements file.
  ASSERT_EQ(ask(*state, kAlice, "PLACE graph=g1 job=8").rfind("OK", 0), 0u);
  state.reset();  // placements are written in the background, at the latest on stop
  auto again = open_state();
  EXPECT_EQ(again->job_placement(8, kAlice).nodes.size(), 4u);
}

TEST(ProtocolTest, ValuesRoundTripThroughEscapes) {
  const std::string odd = "a b=c%d\n\te\x7f";
  EXPECT_EQ(encode_value(odd), "a%20b%3Dc%25d%0A%09e%7F");
  EXPECT_EQ(decode_value(encode_value(odd)), odd);
  const Message m = parse_message(format_message("PLACE", {{"x", odd}, {"y", ""}}, "body\nmore"));
  EXPECT_EQ(m.verb, "PLACE");
  EXPECT_EQ(m.field("x"), odd);
  EXPECT_EQ(m.field("y"), "");
  EXPECT_EQ(m.body, "body\nmore");
}

}  // namespace

namespace {

// Another user may record a placement for a job id before the job exists
// (network PLACE job=N); slurmctld's own placement of the real job then
// replaces it instead of failing with "belongs to another user".
TEST_F(ServiceStateTest, SlurmctldsPlacementReplacesARecordSquattingItsJobId) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  ASSERT_EQ(upload(*state, kBob, "ring.mat", kRing), "OK id=g2 tasks=4 existing=0");
  ASSERT_EQ(ask(*state, kBob, "PLACE graph=g2 job=40").rfind("OK", 0), 0u);
  PlaceRequest request;
  request.uid = kAlice;
  request.graph_id = "g1";
  request.job = 40;
  EXPECT_THROW(state->place(request), tofa::Error);  // a user's own request still may not
  request.from_slurmctld = true;
  EXPECT_EQ(state->place(request).uid, kAlice);
  EXPECT_EQ(ask(*state, kAlice, "JOB job=40").rfind("OK job=40 uid=1000 graph=g1 ", 0), 0u);
  EXPECT_EQ(ask(*state, kBob, "PLACE graph=g2 job=40"), "ERROR job 40 belongs to another user");
}

// select/tofa's step after cons_tres allocated: the node choice's record
// is fitted to the CPUs granted (here n5 got room for one task), moving the
// fewest tasks, and recorded; a job without a record is an error.
TEST_F(ServiceStateTest, FitJobMovesTheFewestTasksToMeetTheAllocation) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  place_job(*state, 9, "n[5-6]", 2);
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=9"), "OK job=9 graph=g1 nodes=n5,n5,n6,n6");
  const auto record = state->fit_job(9, "n5:1-1,n6:1-3");
  std::map<std::string, int> count;
  for (const std::string& node : record.nodes) ++count[node];
  EXPECT_EQ(count, (std::map<std::string, int>{{"n5", 1}, {"n6", 3}}));
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=9"), "OK job=9 graph=g1 nodes=" + record.nodes[0] + "," +
                                                        record.nodes[1] + "," + record.nodes[2] +
                                                        "," + record.nodes[3]);
  EXPECT_EQ(tofa_test::error_text([&] { state->fit_job(10, "n5:1-4"); }),
            "no placement recorded for job 10");
  EXPECT_EQ(tofa_test::error_text([&] { state->fit_job(9, "n5:1-1,n6:1-1"); }),
            "4 tasks do not fit the 2 task slots of 2 nodes");
}

// Issue 38: slurmctld's scheduling pass only chooses the nodes (recorded at
// once, tasks in blocks); the job's strategy orders the tasks on its
// allocation later, the record pending meanwhile.
TEST_F(ServiceStateTest, NodeChoiceNowTheStrategyLater) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  const PlacementRecord chosen = choose_nodes(*state, 12, "n[0-63]:2");
  EXPECT_EQ(chosen.strategy, "compact");
  const std::set<std::string> nodes(chosen.nodes.begin(), chosen.nodes.end());
  ASSERT_EQ(chosen.nodes.size(), 4u);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=12"), "OK job=12 graph=g1 nodes=" +
                                                         join_nodes(chosen.nodes));
  std::string text;
  for (const std::string& node : nodes) text += (text.empty() ? "" : ",") + node + ":1-2";
  const tofa::TaskLimits allocation = tofa::service::parse_candidates(state->topology(), text);
  state->map_later(12, allocation, "greedy", "");
  const PlacementRecord done =
      placement_once(*state, 12, [](const PlacementRecord& r) { return !r.pending; });
  ASSERT_FALSE(done.pending);
  EXPECT_EQ(done.strategy, "greedy");
  EXPECT_EQ(std::set<std::string>(done.nodes.begin(), done.nodes.end()), nodes);
  // The order is final first (srun waits for it), its metrics follow.
  const PlacementRecord evaluated =
      placement_once(*state, 12, [](const PlacementRecord& r) { return r.metrics.tasks != 0; });
  EXPECT_EQ(evaluated.metrics.tasks, 4);
  EXPECT_EQ(evaluated.nodes, done.nodes);
  EXPECT_TRUE(logged("job 12: greedy ordered its tasks on the scheduler's node choice"));
  EXPECT_EQ(tofa_test::error_text([&] { state->map_later(13, allocation, "", ""); }),
            "no placement recorded for job 13");
}

// The shims hand the candidates over as a list (no text in the pass): the
// same choice as from the text, and the node ids of its tasks.
TEST_F(ServiceStateTest, NodeChoiceFromAListIsTheChoiceFromTheText) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  const PlacementRecord from_text = choose_nodes(*state, 12, "n[0-63]:2");
  std::vector<tofa::service::NamedCandidate> listed;
  std::vector<std::string> names;
  for (int node = 0; node < 64; ++node) names.push_back("n" + std::to_string(node));
  for (const std::string& name : names) listed.push_back({name, 0, 2});
  PlaceRequest request;
  request.uid = kAlice;
  request.graph_id = "g1";
  request.job = 13;
  request.from_slurmctld = true;
  tofa::Placement ids;
  const PlacementRecord from_list = state->choose_nodes(
      request, tofa::service::candidate_limits(state->topology(), listed), &ids);
  EXPECT_EQ(from_list.nodes, from_text.nodes);
  ASSERT_EQ(ids.size(), from_list.nodes.size());
  for (std::size_t task = 0; task < ids.size(); ++task)
    EXPECT_EQ(state->topology().node_name(ids[task]), from_list.nodes[task]);
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=13"), "OK job=13 graph=g1 nodes=" +
                                                         join_nodes(from_list.nodes));
}

// A step that stops waiting takes the record as it is; the strategy's
// result, when it comes, does not change what the step runs.
TEST_F(ServiceStateTest, ATakenPlacementStaysWhatTheStepRuns) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  choose_nodes(*state, 14, "n[0-63]:1");
  state->map_later(14, {}, "anneal", "");
  const PlacementRecord taken = state->take_placement(14, kAlice);
  EXPECT_FALSE(taken.pending);
  const PlacementRecord later =
      placement_once(*state, 14, [](const PlacementRecord& r) { return r.metrics.tasks != 0; });
  EXPECT_EQ(later.metrics.tasks, 4);  // evaluated by the queued work
  EXPECT_EQ(later.nodes, taken.nodes);
  EXPECT_EQ(tofa_test::error_text([&] { state->take_placement(14, kBob); }),
            "no placement recorded for job 14");
}

// A job array task is placed under the array's id, then split off with its
// own: the record follows it, and the array's id has none left.
TEST_F(ServiceStateTest, MovePlacementRekeysARecord) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  place_job(*state, 27, "n[5-8]", 1);
  state->move_placement(27, 28);
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=28"), "OK job=28 graph=g1 nodes=n5,n6,n7,n8");
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=27"), "ERROR no placement recorded for job 27");
  EXPECT_EQ(tofa_test::error_text([&] { state->move_placement(27, 29); }),
            "no placement recorded for job 27");
}

// A record the select shim could not carry over to the job's allocation
// is dropped, on disk too; dropping a job without one is no error.
TEST_F(ServiceStateTest, ForgetPlacementDropsTheRecord) {
  {
    auto state = open_state();
    ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
    place_job(*state, 31, "n[5-8]", 1);
    place_job(*state, 32, "n[5-8]", 1);
    state->forget_placement(31);
    state->forget_placement(33);
    EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=31"), "ERROR no placement recorded for job 31");
    EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=32"), "OK job=32 graph=g1 nodes=n5,n6,n7,n8");
  }
  auto reopened = open_state();
  EXPECT_EQ(ask(*reopened, kAlice, "PLACEMENT job=31"), "ERROR no placement recorded for job 31");
  EXPECT_EQ(ask(*reopened, kAlice, "PLACEMENT job=32"), "OK job=32 graph=g1 nodes=n5,n6,n7,n8");
}

// A direct srun's placement, computed before its job had an id, is
// recorded with RECORD once it has one: same checks as PLACE job=N.
TEST_F(ServiceStateTest, RecordKeepsADirectSrunsPlacement) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  ASSERT_EQ(upload(*state, kBob, "ring.mat", kRing), "OK id=g2 tasks=4 existing=0");
  EXPECT_EQ(ask(*state, kAlice, "RECORD graph=g1 job=50 strategy=greedy nodes=n5,n5,n6,n6")
                .rfind("OK job=50 strategy=greedy nodes=n5,n5,n6,n6 tasks=4 nodes_used=2 ", 0),
            0u);
  EXPECT_EQ(ask(*state, kAlice, "PLACEMENT job=50"), "OK job=50 graph=g1 nodes=n5,n5,n6,n6");
  EXPECT_EQ(ask(*state, kAlice, "RECORD graph=g1 job=51 nodes=n5,n6"),
            "ERROR graph g1 has 4 tasks, the placement 2");
  EXPECT_EQ(ask(*state, kAlice, "RECORD graph=g1 job=51 nodes=n5,n6,x1,n6"),
            "ERROR node x1 is not in the topology");
  EXPECT_EQ(ask(*state, kBob, "RECORD graph=g2 job=50 nodes=n1,n1,n1,n1"),
            "ERROR job 50 belongs to another user");
  EXPECT_EQ(ask(*state, kBob, "RECORD graph=g1 job=52 nodes=n1,n1,n1,n1"), "ERROR unknown graph id g1");
}

/// The node names of a PLACE or RECORD reply.
std::set<std::string> nodes_of(const std::string& reply) {
  const std::size_t start = reply.find(" nodes=") + 7;
  std::set<std::string> nodes;
  for (const std::string& n : tofa::service::split_nodes(reply.substr(start, reply.find(' ', start) - start)))
    nodes.insert(n);
  return nodes;
}

bool disjoint(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const std::string& n : a)
    if (b.count(n)) return false;
  return true;
}

// Issue 11 (5): concurrent direct sruns see the same free CPUs; the tasks
// promised to one are left to it until its job is recorded, while the next
// still fits beside them.
TEST_F(ServiceStateTest, DirectSrunsAvoidEachOthersPromisedTasks) {
  auto state = open_state();
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  const std::string place =
      "PLACE graph=g1 job=none tasks=4 strategy=greedy candidates=n0:2,n1:2,n2:2,n3:2 claim=yes";
  const std::set<std::string> first = nodes_of(ask(*state, kAlice, place));
  const std::set<std::string> second = nodes_of(ask(*state, kAlice, place));
  EXPECT_EQ(first.size(), 2u);
  EXPECT_EQ(second.size(), 2u);
  EXPECT_TRUE(disjoint(first, second));
  // All 8 slots promised: the third does not fit beside them and is placed
  // on the free CPUs anyway (its job queues, as without promises).
  EXPECT_EQ(ask(*state, kAlice, place).rfind("OK ", 0), 0u);
  // A direct srun also leaves nodes above OutageThreshold alone while it fits.
  ASSERT_EQ(ask(*state, kAdmin, "SET_OUTAGE node=n4 p=0.9"), "OK");
  const std::string fresh =
      "PLACE graph=g1 job=none tasks=4 strategy=greedy candidates=n4:4,n5:4 claim=yes";
  EXPECT_EQ(nodes_of(ask(*state, kAlice, fresh)), (std::set<std::string>{"n5"}));
  // Without claim=yes (a trial or a step), promises are ignored.
  EXPECT_EQ(nodes_of(ask(*state, kAlice,
                         "PLACE graph=g1 job=none tasks=4 strategy=greedy candidates=n0:2,n1:2,n2:2,n3:2")),
            nodes_of(ask(*state, kAlice,
                         "PLACE graph=g1 job=none tasks=4 strategy=greedy candidates=n0:2,n1:2,n2:2,n3:2")));
}

// Issue 39 (1): a request could ask for as much mapping as the worker's
// time limit allows (sweeps=999999999999); such work is refused before it
// starts, and so is a budget the worker would be stopped before.
TEST_F(ServiceStateTest, WorkBeyondTheLimitsIsRefusedBeforeItStarts) {
  auto state = open_state();  // MapTimeLimit=10 by default
  ASSERT_EQ(upload(*state, kAlice, "ring.mat", kRing), "OK id=g1 tasks=4 existing=0");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 strategy=anneal params=sweeps=999999999999"),
            "ERROR sweeps=999999999999 is more than the service allows (100000)");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 strategy=anneal params=iterations=1e12"),
            "ERROR iterations=1e12 is more than the service allows (1e10)");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 strategy=auto params=budget=11"),
            "ERROR budget=11 is more than MapTimeLimit=10 s, after which the mapping is stopped");
  EXPECT_EQ(ask(*state, kAlice, "PLACE graph=g1 strategy=anneal params=sweeps=100;budget=1")
                .rfind("OK", 0),
            0u);
}

// Direct sruns of several users placed at the same moment (the service
// answers on several threads) still get disjoint nodes: a placement computed
// while others added their claims is computed again. One user's second
// concurrent placement is refused as busy (its client tries again).
TEST_F(ServiceStateTest, ConcurrentDirectSrunsGetDisjointNodes) {
  auto state = open_state();
  const std::vector<uid_t> users = {1000, 1001, 1002, 1003};
  for (std::size_t u = 0; u < users.size(); ++u)
    ASSERT_EQ(upload(*state, users[u], "ring.mat", kRing),
              "OK id=g" + std::to_string(u + 1) + " tasks=4 existing=0");
  const std::string candidates = " tasks=4 strategy=greedy "
                                 "candidates=n0:2,n1:2,n2:2,n3:2,n4:2,n5:2,n6:2,n7:2 claim=yes";
  std::vector<std::string> answers(users.size());
  std::vector<std::thread> sruns;
  for (std::size_t u = 0; u < users.size(); ++u)
    sruns.emplace_back([&, u] {
      answers[u] = ask(*state, users[u], "PLACE graph=g" + std::to_string(u + 1) + " job=none" + candidates);
    });
  for (std::thread& srun : sruns) srun.join();
  std::set<std::string> used;
  for (const std::string& answer : answers) {
    const std::set<std::string> nodes = nodes_of(answer);
    EXPECT_EQ(nodes.size(), 2u) << answer;
    EXPECT_TRUE(disjoint(used, nodes)) << answer;
    used.insert(nodes.begin(), nodes.end());
  }
  // One user, four at once: each is placed or refused as busy, never both
  // running; the admitted ones are disjoint from each other too.
  std::vector<std::string> mine(4);
  sruns.clear();
  for (std::string& answer : mine)
    sruns.emplace_back([&] { answer = ask(*state, users[0], "PLACE graph=g1 job=none" + candidates); });
  for (std::thread& srun : sruns) srun.join();
  int placed = 0;
  for (const std::string& answer : mine) {
    if (answer.rfind("OK ", 0) == 0) {
      ++placed;
    } else {
      EXPECT_EQ(answer.rfind("ERROR busy: ", 0), 0u) << answer;
    }
  }
  EXPECT_GE(placed, 1);
}

TEST(SrunClaims, PromisesLapseAndAreReleasedByTheirRecord) {
  tofa::service::SrunClaims claims(30, 5);
  claims.add(1000, {"n1", "n1", "n2"}, 100);
  claims.add(1001, {"n2"}, 110);
  EXPECT_EQ(claims.promised(120), (std::map<std::string, int>{{"n1", 2}, {"n2", 2}}));
  EXPECT_FALSE(claims.release(1000, {"n1", "n2"}, 120));       // other counts
  EXPECT_FALSE(claims.release(1001, {"n1", "n1", "n2"}, 120));  // other user
  EXPECT_TRUE(claims.release(1000, {"n2", "n1", "n1"}, 120));   // order does not matter
  EXPECT_FALSE(claims.release(1000, {"n2", "n1", "n1"}, 120));  // released once
  // Kept 5 s after its release (node states read just before).
  EXPECT_EQ(claims.promised(124), (std::map<std::string, int>{{"n1", 2}, {"n2", 2}}));
  EXPECT_EQ(claims.promised(126), (std::map<std::string, int>{{"n2", 1}}));
  EXPECT_TRUE(claims.promised(141).empty());  // 31 s after the second
  EXPECT_EQ(claims.size(), 0u);
}

}  // namespace
