// The state file formats on their own: a bad record costs only itself,
// inf and nan never reach a file, the version header decides what loads
// (current, the previous "tofa-KIND 1" format, never a newer one), and
// files are replaced atomically.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "base/error.hpp"
#include "net/sha256.hpp"
#include "service/graph_file.hpp"
#include "service/graph_store.hpp"
#include "service/node_health.hpp"
#include "service/placement_store.hpp"
#include "service/state_files.hpp"
#include "service/state_text.hpp"

namespace {

using namespace tofa::service;

const std::string kPlacement =
    "placement job=7 uid=1000 graph=g1 strategy=default-slurm time=1700000000.5 "
    "nodes=n5,n6,n7,n8 tasks=4 nodes_used=4 total_bytes=400 hop_bytes=600 average_hops=1.5 "
    "hop_variance=0.25 max_hops=2 dilation=1.5 max_link_load=200 links_used=4 "
    "abort_probability=0";

std::string with_job(std::string line, int job) {
  return line.replace(line.find("job=7"), 5, "job=" + std::to_string(job));
}

std::string replaced(std::string line, const std::string& from, const std::string& to) {
  return line.replace(line.find(from), from.size(), to);
}

bool noted(const LoadNotes& notes, const std::string& text) {
  for (const std::string& note : notes)
    if (note == text) return true;
  return false;
}

std::string all(const LoadNotes& notes) {
  std::string text;
  for (const std::string& note : notes) text += note + "\n";
  return text;
}

const std::string kDigestOfA = tofa::net::to_hex(tofa::net::sha256("a"));
std::string graph_line(const std::string& id) {
  return "graph id=" + id + " uid=1000 name=ring.mat tasks=4 bytes=32 sha256=" + kDigestOfA +
         " uploaded=1700000000 used=1700000001";
}

TEST(StateFormat, ACorruptPlacementAmidGoodOnesIsSkippedAndNamed) {
  const std::string text = "# tofa-state placements 2\n" + kPlacement + "\n" +
                           "placement job=x uid=1000\n" + "garbage %%%\n" +
                           with_job(kPlacement, 9) + "\n" +
                           replaced(with_job(kPlacement, 10), "nodes=n5,n6,n7,n8", "nodes=n5") +
                           "\n";
  LoadNotes notes;
  const PlacementStore store = PlacementStore::parse(text, "placements.state", 1000, &notes);
  EXPECT_EQ(store.size(), 2u);
  ASSERT_NE(store.find(7), nullptr);
  ASSERT_NE(store.find(9), nullptr);
  EXPECT_EQ(store.find(9)->nodes.size(), 4u);
  EXPECT_EQ(store.find(9)->metrics.hop_bytes, 600);
  ASSERT_EQ(notes.size(), 3u) << all(notes);
  EXPECT_TRUE(noted(notes, "placements.state:3: bad job 'x': expected an integer in "
                           "1..4294967295; record skipped"))
      << all(notes);
  EXPECT_TRUE(noted(notes, "placements.state:4: expected 'key=value', found '%%%'; record skipped"))
      << all(notes);
  EXPECT_TRUE(noted(notes, "placements.state:6: tasks=4 but 1 nodes are listed; record skipped"))
      << all(notes);
}

TEST(StateFormat, ATwiceListedJobKeepsItsFirstRecord) {
  const std::string text = "# tofa-state placements 2\n" + kPlacement + "\n" +
                           replaced(kPlacement, "graph=g1", "graph=g2") + "\n";
  LoadNotes notes;
  const PlacementStore store = PlacementStore::parse(text, "p", 1000, &notes);
  ASSERT_NE(store.find(7), nullptr);
  EXPECT_EQ(store.find(7)->graph_id, "g1");
  EXPECT_EQ(all(notes), "p:3: job 7 is listed twice; record skipped\n");
}

TEST(StateFormat, InfiniteOrNanMetricsAreClampedWhenRead) {
  // What tofa before format 2 wrote for a graph whose weights sum to inf
  // (issue 10): the job's placement is kept, the metric clamped.
  const std::string text = "tofa-placements 1\n" +
                           replaced(replaced(kPlacement, "total_bytes=400", "total_bytes=inf"),
                                    "hop_bytes=600", "hop_bytes=nan") +
                           "\n" + with_job(kPlacement, 8) + "\n";
  LoadNotes notes;
  const PlacementStore store = PlacementStore::parse(text, "placements.state", 1000, &notes);
  EXPECT_EQ(store.size(), 2u);
  ASSERT_NE(store.find(7), nullptr);
  EXPECT_EQ(store.find(7)->metrics.total_bytes, std::numeric_limits<double>::max());
  EXPECT_EQ(store.find(7)->metrics.hop_bytes, 0);
  EXPECT_EQ(store.find(7)->nodes.size(), 4u);
  EXPECT_TRUE(noted(notes, "placements.state:2: total_bytes 'inf' is not finite, read as "
                           "1.7976931348623157e+308"))
      << all(notes);
  EXPECT_TRUE(noted(notes, "placements.state:2: hop_bytes 'nan' is not finite, read as 0"))
      << all(notes);
  // A non-finite time is no metric: that record goes, the others stay.
  LoadNotes more;
  const PlacementStore timed = PlacementStore::parse(
      "tofa-placements 1\n" + replaced(kPlacement, "time=1700000000.5", "time=inf") + "\n" +
          with_job(kPlacement, 8) + "\n",
      "p", 1000, &more);
  EXPECT_EQ(timed.size(), 1u);
  EXPECT_EQ(all(more), "p:2: bad time 'inf': expected a number; record skipped\n");
}

TEST(StateFormat, NonFiniteMetricsAreNeverStoredNorWritten) {
  PlacementRecord record;
  record.job = 3;
  record.nodes = {"n1", "n2"};
  record.metrics.tasks = 2;
  record.metrics.total_bytes = std::numeric_limits<double>::infinity();
  record.metrics.hop_bytes = -std::numeric_limits<double>::infinity();
  record.metrics.dilation = std::nan("");
  tofa::PlacementMetrics clamped = record.metrics;
  const std::vector<std::string> replaced_metrics = clamp_metrics(clamped);
  ASSERT_EQ(replaced_metrics.size(), 3u);
  EXPECT_EQ(replaced_metrics[0], "total_bytes=inf is not finite, kept as 1.7976931348623157e+308");
  EXPECT_EQ(replaced_metrics[1],
            "hop_bytes=-inf is not finite, kept as -1.7976931348623157e+308");
  EXPECT_EQ(replaced_metrics[2], "dilation=nan is not finite, kept as 0");

  PlacementStore store;
  store.put(record);
  const std::string text = store.to_text();
  EXPECT_EQ(text.rfind("# tofa-state placements 2\nplacement job=3 ", 0), 0u) << text;
  EXPECT_EQ(text.find("inf"), std::string::npos) << text;
  EXPECT_EQ(text.find("nan"), std::string::npos) << text;
  LoadNotes notes;
  const PlacementStore again = PlacementStore::parse(text, "p", 1000, &notes);
  EXPECT_TRUE(notes.empty()) << all(notes);
  ASSERT_NE(again.find(3), nullptr);
  EXPECT_EQ(again.find(3)->metrics.total_bytes, std::numeric_limits<double>::max());
  EXPECT_EQ(state_number(std::nan("")), "0");
  EXPECT_EQ(state_number(-std::numeric_limits<double>::infinity()), "-1.7976931348623157e+308");
}

TEST(StateFormat, ANewerVersionIsRefusedWholeForEveryKind) {
  LoadNotes notes;
  long long next = 0;
  EXPECT_THROW(PlacementStore::parse("# tofa-state placements 3\n" + kPlacement + "\n", "p", 10,
                                     &notes),
               NewerStateFile);
  EXPECT_THROW(NodeHealth::parse("# tofa-state nodes 3\n", "n", &notes), NewerStateFile);
  EXPECT_THROW(GraphStore::parse_index("# tofa-state graphs 17\n", "g", next, &notes),
               NewerStateFile);
  try {
    PlacementStore::parse("# tofa-state placements 3\n", "placements.state", 10, &notes);
  } catch (const NewerStateFile& e) {
    EXPECT_STREQ(e.what(), "placements.state: format version 3, this tofa reads versions up to 2");
  }
  EXPECT_TRUE(notes.empty());
}

TEST(StateFormat, AnUnreadableFirstLineRefusesTheWholeFile) {
  LoadNotes notes;
  for (const std::string& text : {std::string(), "placement job=7\n" + kPlacement,
                                  std::string("# tofa-state nodes 2\n"),
                                  std::string("# tofa-state placements two\n")}) {
    try {
      PlacementStore::parse(text, "placements.state", 10, &notes);
      ADD_FAILURE() << "parsed: " << text;
    } catch (const NewerStateFile&) {
      ADD_FAILURE() << "newer: " << text;
    } catch (const tofa::ParseError& e) {
      EXPECT_STREQ(e.what(), "placements.state:1:0: expected '# tofa-state placements 2' or "
                             "'tofa-placements 1'");
    }
  }
}

TEST(StateFormat, ThePreviousFormatOfEveryFileLoads) {
  LoadNotes notes;
  const PlacementStore placements =
      PlacementStore::parse("tofa-placements 1\n" + kPlacement + "\n", "p", 10, &notes);
  ASSERT_NE(placements.find(7), nullptr);
  EXPECT_EQ(placements.find(7)->time, 1700000000.5);

  const NodeHealth health = NodeHealth::parse(
      "tofa-nodes 1\nnode name=n2 heartbeat=1010 answer=1000 answered_last=0 override=0.25 "
      "answered=1 missed=1 ewma=0.1 recent=10\n",
      "n", &notes);
  ASSERT_NE(health.find("n2"), nullptr);
  EXPECT_EQ(health.find("n2")->history.missed_total(), 1u);
  EXPECT_EQ(*health.find("n2")->override_probability, 0.25);

  long long next = 0;
  const std::vector<GraphRecord> graphs =
      GraphStore::parse_index("tofa-graphs 1\nnext n=3\n" + graph_line("g1") + "\n", "g", next,
                              &notes);
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].id, "g1");
  EXPECT_EQ(next, 3);
  EXPECT_TRUE(notes.empty()) << all(notes);
}

TEST(StateFormat, BadNodeAndGraphRecordsAreSkipped) {
  LoadNotes notes;
  const NodeHealth health = NodeHealth::parse(
      "# tofa-state nodes 2\n"
      "node name=n1 heartbeat=5 answer=5 answered_last=1 override=none answered=1 missed=0 "
      "ewma=0 recent=1\n"
      "node name=n2 heartbeat=5 answer=5 answered_last=1 override=7 answered=1 missed=0 "
      "ewma=0 recent=1\n"
      "node name=n3 heartbeat=5 answer=5 answered_last=1 override=none\n"
      "node name=n4 heartbeat=5 answer=5 answered_last=1 override=none answered=1 missed=0 "
      "ewma=0 recent=1\n",
      "nodes.state", &notes);
  EXPECT_EQ(health.records().size(), 2u);
  EXPECT_NE(health.find("n4"), nullptr);
  EXPECT_EQ(all(notes),
            "nodes.state:3: bad override: expected a number in [0, 1]; record skipped\n"
            "nodes.state:4: missing heartbeat history; record skipped\n");

  notes.clear();
  long long next = 0;
  const std::vector<GraphRecord> graphs = GraphStore::parse_index(
      "# tofa-state graphs 2\nnext n=2\n" + graph_line("g1") + "\n" +
          replaced(graph_line("g7"), "tasks=4", "tasks=-1") + "\n" + graph_line("g1") + "\n" +
          replaced(graph_line("g2"), kDigestOfA, "xyz") + "\n",
      "graphs.state", next, &notes);
  ASSERT_EQ(graphs.size(), 1u);
  EXPECT_EQ(graphs[0].id, "g1");
  EXPECT_EQ(next, 8);  // the skipped g7's id is not handed out again
  EXPECT_EQ(all(notes),
            "graphs.state:4: bad tasks '-1': expected an integer in 1..1073741824; record "
            "skipped\n"
            "graphs.state:5: graph g1 is listed twice; record skipped\n"
            "graphs.state:6: bad sha256 'xyz': expected 64 hex digits; record skipped\n");
}

TEST(StateFormat, GraphFilesCarryAHeaderAndTheirDigestDecides) {
  const std::string upload = "0 1 5\n";
  const std::string digest = tofa::net::to_hex(tofa::net::sha256(upload));
  EXPECT_EQ(graph_file_text(upload), "# tofa-state graph 2\n0 1 5\n");
  EXPECT_EQ(uploaded_text(graph_file_text(upload), digest, "g1.graph"), upload);
  EXPECT_EQ(uploaded_text(upload, digest, "g1.graph"), upload);  // format 1: the bare upload
  // An upload that itself starts like a header is taken whole when that matches.
  const std::string odd = "# tofa-state graph 2\n0 1 5\n";
  EXPECT_EQ(uploaded_text(odd, tofa::net::to_hex(tofa::net::sha256(odd)), "g1.graph"), odd);
  try {
    uploaded_text("# tofa-state graph 2\n0 1 6\n", digest, "g1.graph");
    ADD_FAILURE();
  } catch (const NewerStateFile&) {
    ADD_FAILURE();
  } catch (const tofa::Error& e) {
    EXPECT_STREQ(e.what(), "g1.graph: content does not match the SHA-256 recorded at upload "
                           "(damaged file)");
  }
  EXPECT_THROW(uploaded_text("# tofa-state graph 3\n0 1 5\n", digest, "g1.graph"),
               NewerStateFile);
}

TEST(StateFiles, WritesReplaceWholeFilesAndLeaveNoTemporary) {
  char pattern[] = "/tmp/tofa-state-files-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string dir = std::string(pattern) + "/new/state";
  make_directory(dir);  // parents created (and synced) too
  const std::string file = dir + "/placements.state";
  write_file_atomically(file, "first\n");
  write_file_atomically(file, std::string(1 << 20, 'x'));
  std::string content;
  ASSERT_TRUE(read_file(file, content, 2 << 20));
  EXPECT_EQ(content.size(), 1u << 20);
  struct stat info {};
  ASSERT_EQ(stat(file.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_NE(access((file + ".tmp").c_str(), F_OK), 0);
  EXPECT_THROW(write_file_atomically(dir + "/missing/x.state", "x"), tofa::Error);

  std::ofstream(dir + "/nodes.state.tmp") << "half";
  std::ofstream(dir + "/keep.txt") << "kept";
  EXPECT_EQ(remove_temporaries(dir), std::vector<std::string>{"nodes.state.tmp"});
  EXPECT_EQ(access((dir + "/keep.txt").c_str(), F_OK), 0);
  EXPECT_EQ(access(file.c_str(), F_OK), 0);
  std::system(("rm -rf " + std::string(pattern)).c_str());
}

}  // namespace
