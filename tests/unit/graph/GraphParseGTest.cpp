// CommGraph construction and the three graph file formats.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "graph/graph.hpp"

namespace {

using tofa::CommEdge;
using tofa::CommGraph;
using tofa::GraphFormat;
using tofa_test::TempFile;

/// The path of a file and the what() of the ParseError reading it produced.
struct Failure {
  std::string path;
  std::string what;
};

Failure read_failure(const std::string& content, GraphFormat format = GraphFormat::Auto) {
  TempFile file(content);
  Failure failure{file.path(), "no ParseError"};
  try {
    tofa::read_graph(file.path(), format);
  } catch (const tofa::ParseError& e) {
    failure.what = e.what();
  }
  return failure;
}

std::string parse_failure(const std::string& content, GraphFormat format = GraphFormat::Auto) {
  std::istringstream in(content);
  try {
    tofa::parse_graph(in, "src", format);
  } catch (const tofa::ParseError& e) {
    return e.what();
  }
  return "no ParseError";
}

CommGraph parse(const std::string& content, GraphFormat format = GraphFormat::Auto) {
  std::istringstream in(content);
  return tofa::parse_graph(in, "src", format);
}

/// A file at a chosen path, removed when the object dies.
class FileAt {
 public:
  FileAt(std::string path, const std::string& content) : path_(std::move(path)) {
    std::ofstream(path_) << content;
  }
  ~FileAt() { std::remove(path_.c_str()); }
  FileAt(const FileAt&) = delete;
  FileAt& operator=(const FileAt&) = delete;

 private:
  std::string path_;
};

void expect_edge(const CommEdge& edge, int from, int to, double bytes, double messages) {
  EXPECT_EQ(edge.from, from);
  EXPECT_EQ(edge.to, to);
  EXPECT_DOUBLE_EQ(edge.bytes, bytes) << from << "-" << to;
  EXPECT_DOUBLE_EQ(edge.messages, messages) << from << "-" << to;
}

// Directed 3x3 example used by several tests:
//   G = | 0 10 0 |    w{0,1} = 10 + 5 = 15   (2 non-zero directed entries)
//       | 5  7 2 |    w{1,2} =  2 + 0 =  2   (1)
//       | 1  0 0 |    w{0,2} =  0 + 1 =  1   (1)
// G(1,1) = 7 is on the diagonal and ignored.
const char* const kDirected3 =
    "# bytes sent from row to column\n"
    "3\n"
    "\n"
    "0 10 0   # row 0\n"
    "5 7 2\n"
    "1 0 0\n";

// -------------------------------------------------------------- CommGraph

TEST(CommGraph, DenseMatrixIsSymmetrizedIntoSortedCsr) {
  const CommGraph g = parse(kDirected3);
  ASSERT_EQ(g.task_count(), 3);
  EXPECT_EQ(g.edge_count(), 3u);
  EXPECT_EQ(g.offsets(), (std::vector<std::int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(g.adjacency(), (std::vector<int>{1, 2, 0, 2, 0, 1}));
  EXPECT_EQ(g.bytes(), (std::vector<double>{15, 1, 15, 2, 1, 2}));
  EXPECT_EQ(g.messages(), (std::vector<double>{2, 1, 2, 1, 1, 1}));
  // 15 + 2 + 1
  EXPECT_DOUBLE_EQ(g.total_bytes(), 18);
  // task 0: 15 + 1, task 1: 15 + 2, task 2: 1 + 2
  EXPECT_EQ(g.task_volumes(), (std::vector<double>{16, 17, 3}));

  const std::vector<CommEdge> edges = g.undirected_edges();
  ASSERT_EQ(edges.size(), 3u);
  expect_edge(edges[0], 0, 1, 15, 2);
  expect_edge(edges[1], 0, 2, 1, 1);
  expect_edge(edges[2], 1, 2, 2, 1);
}

TEST(CommGraph, ARecordedMatrixKeepsWhoSends) {
  // Row u, entry k: what u sends to adjacency[k] of the pair's bytes.
  const CommGraph g = parse(kDirected3);
  ASSERT_TRUE(g.has_directions());
  std::vector<double> sent;
  for (std::int64_t k = 0; k < g.offsets().back(); ++k) sent.push_back(g.sent(k));
  EXPECT_EQ(sent, (std::vector<double>{10, 0, 5, 2, 1, 0}));
  const CommGraph edges = parse("0 1 4\n1 2 6\n2 1 1\n", GraphFormat::EdgeList);
  ASSERT_TRUE(edges.has_directions());
  EXPECT_EQ(edges.sent(0), 4);  // row 0: 0 -> 1
  EXPECT_EQ(edges.sent(2), 6);  // row 1: 0, 2; 1 -> 2
}

TEST(CommGraph, WithoutKeptDirectionsEachWaySendsHalf) {
  const CommGraph g = CommGraph::from_directed_edges(2, {{0, 1, 8, 1}});
  EXPECT_FALSE(g.has_directions());
  EXPECT_EQ(g.sent(0), 4);
  EXPECT_EQ(g.sent(1), 4);
  const CommGraph kept = CommGraph::from_directed_edges(2, {{0, 1, 8, 1}}, tofa::Directions::Kept);
  EXPECT_EQ(kept.sent(0), 8);
  EXPECT_EQ(kept.sent(1), 0);
}

TEST(CommGraph, DiagonalOnlyMatrixHasNoEdges) {
  const CommGraph g = parse("2\n5 0\n0 9\n");
  EXPECT_EQ(g.task_count(), 2);
  EXPECT_EQ(g.edge_count(), 0u);
  EXPECT_EQ(g.offsets(), (std::vector<std::int64_t>{0, 0, 0}));
  EXPECT_DOUBLE_EQ(g.total_bytes(), 0);
}

TEST(CommGraph, DecimalAndExponentValuesAndCrLf) {
  // w{0,1} = 1e6 + 0.5
  const CommGraph g = parse("2\r\n0 1e6\r\n0.5 0\r\n");
  ASSERT_EQ(g.edge_count(), 1u);
  expect_edge(g.undirected_edges()[0], 0, 1, 1000000.5, 2);
}

TEST(CommGraph, FromDirectedEdgesSortsMergesAndDropsSelfLoops) {
  // Records out of order; 2->0 and 0->2 merge into {0,2}: 4 + 1 bytes, 1 + 2 messages.
  const CommGraph g = CommGraph::from_directed_edges(
      4, {{3, 1, 7, 1}, {2, 0, 4, 1}, {1, 1, 50, 9}, {0, 2, 1, 2}, {0, 3, 2, 1}});
  EXPECT_EQ(g.offsets(), (std::vector<std::int64_t>{0, 2, 3, 4, 6}));
  EXPECT_EQ(g.adjacency(), (std::vector<int>{2, 3, 3, 0, 0, 1}));
  EXPECT_EQ(g.bytes(), (std::vector<double>{5, 2, 7, 5, 2, 7}));
  EXPECT_EQ(g.messages(), (std::vector<double>{3, 1, 1, 3, 1, 1}));
}

TEST(CommGraph, FromDirectedEdgesRejectsIdsOutsideTheTaskRange) {
  EXPECT_THROW(CommGraph::from_directed_edges(2, {{0, 2, 1, 1}}), tofa::Error);
  EXPECT_THROW(CommGraph::from_directed_edges(2, {{-1, 1, 1, 1}}), tofa::Error);
}

TEST(CommGraph, MessageMatrixPath) {
  EXPECT_EQ(tofa::message_matrix_path("dir/comm.mat"), "dir/comm.msgs.mat");
  EXPECT_EQ(tofa::message_matrix_path("comm"), "comm.msgs");
  EXPECT_EQ(tofa::message_matrix_path("run.1/comm"), "run.1/comm.msgs");
  EXPECT_EQ(tofa::message_matrix_path("a.b.mat"), "a.b.msgs.mat");
}

TEST(CommGraph, WriteDenseMatrixKeepsWhoSends) {
  std::ostringstream out;
  tofa::write_dense_matrix(out, parse(kDirected3));
  EXPECT_EQ(out.str(), "3\n0 10 0\n5 0 2\n1 0 0\n");  // the diagonal dropped
  std::ostringstream halved;
  tofa::write_dense_matrix(halved, CommGraph::from_directed_edges(2, {{0, 1, 3, 1}}));
  EXPECT_EQ(halved.str(), "2\n0 1.5\n1.5 0\n");
}

TEST(CommGraph, WriteDenseMatrixRoundTripsExactly) {
  // 0.1 + 0.2 is not 0.3 in binary; the written text must keep every bit.
  const CommGraph original = parse("0 1 0.1\n1 0 0.2\n1 2 3e9\n");
  std::ostringstream out;
  tofa::write_dense_matrix(out, original);
  const CommGraph copy = parse(out.str());
  EXPECT_EQ(copy.task_count(), original.task_count());
  EXPECT_EQ(copy.offsets(), original.offsets());
  EXPECT_EQ(copy.adjacency(), original.adjacency());
  EXPECT_EQ(copy.bytes(), original.bytes());
}

TEST(CommGraph, WriteMatrixMarketRoundTripsExactly) {
  // Task 3 has no edge: the size line, not the largest id, keeps it.
  const CommGraph original = parse("4\n0 0.1 0 0\n0.2 0 3e9 0\n0 0 0 0\n0 0 0 0\n");
  std::ostringstream out;
  tofa::write_matrix_market(out, original);
  EXPECT_EQ(out.str(),
            "%%MatrixMarket matrix coordinate real general\n4 4 3\n1 2 0.1\n2 1 0.2\n2 3 3e+09\n");
  const CommGraph copy = parse(out.str());
  EXPECT_EQ(copy.task_count(), 4);
  EXPECT_EQ(copy.offsets(), original.offsets());
  EXPECT_EQ(copy.adjacency(), original.adjacency());
  EXPECT_EQ(copy.bytes(), original.bytes());
  for (std::int64_t k = 0; k < original.offsets().back(); ++k) EXPECT_EQ(copy.sent(k), original.sent(k));
}

TEST(CommGraph, LargerDenseMatrixMatchesRingFixture) {
  const CommGraph ring = tofa_test::ring_graph(200, 3);
  std::ostringstream out;
  tofa::write_dense_matrix(out, ring);
  const CommGraph parsed = parse(out.str());
  EXPECT_EQ(parsed.offsets(), ring.offsets());
  EXPECT_EQ(parsed.adjacency(), ring.adjacency());
  EXPECT_EQ(parsed.bytes(), ring.bytes());
  // Written half each way: a message each way.
  for (std::size_t k = 0; k < ring.messages().size(); ++k)
    EXPECT_EQ(parsed.messages()[k], 2 * ring.messages()[k]);
}

// ------------------------------------------------------------ edge list

TEST(EdgeList, DuplicatesAddUpAndMessagesDefaultToOne) {
  // {0,1}: 100 + 50 + 25 bytes, 1 + 3 + 2 messages; {2,3}: 8 bytes, 1 message;
  // the self loop 3->3 is dropped but still makes N = 4.
  const CommGraph g = parse(
      "# i j bytes [msgs]\n"
      "0 1 100\n"
      "1 0 50 3\n"
      "0 1 25 2   # again\n"
      "2 3 8\n"
      "3 3 9\n");
  EXPECT_EQ(g.task_count(), 4);
  const std::vector<CommEdge> edges = g.undirected_edges();
  ASSERT_EQ(edges.size(), 2u);
  expect_edge(edges[0], 0, 1, 175, 6);
  expect_edge(edges[1], 2, 3, 8, 1);
}

TEST(EdgeList, TaskCountIsLargestIdPlusOne) {
  const CommGraph g = parse("0 9 1\n");
  EXPECT_EQ(g.task_count(), 10);
  EXPECT_EQ(g.edge_count(), 1u);
}

tofa::GraphLimits limits(long long tasks, const std::string& tasks_source,
                         long long memory = 0, const std::string& memory_source = "") {
  tofa::GraphLimits out;
  out.max_tasks = tasks;
  out.tasks_source = tasks_source;
  out.max_memory = memory;
  out.memory_source = memory_source;
  return out;
}

// A caller's task limit (the service's MaxGraphTasks) is checked at the
// line that sets the size, before any memory is taken for it: one edge
// naming task 16,777,215 would otherwise allocate the CSR offsets of 2^24
// tasks. A graph at the limit passes.
TEST(TaskLimit, RefusedWhereTheFileSetsTheSize) {
  auto limited = [](const std::string& content) {
    std::istringstream in(content);
    try {
      return std::to_string(
          tofa::parse_graph(in, "big", GraphFormat::Auto, limits(64, "MaxGraphTasks in tofa.conf"))
              .task_count());
    } catch (const tofa::ParseError& e) {
      return std::string(e.what());
    }
  };
  EXPECT_EQ(limited("0 1 5\n2 16777215 5\n"),
            "big:2:3: task id 16777215 means 16777216 tasks, expected at most 64 "
            "(MaxGraphTasks in tofa.conf)");
  EXPECT_EQ(limited("# header\n65\n"),
            "big:2:1: task count 65 means 65 tasks, expected at most 64 (MaxGraphTasks in "
            "tofa.conf)");
  EXPECT_EQ(limited("%%MatrixMarket matrix coordinate real general\n100 100 1\n1 2 3\n"),
            "big:2:1: size 100 means 100 tasks, expected at most 64 (MaxGraphTasks in tofa.conf)");
  EXPECT_EQ(limited("0 63 1\n"), "64");
}

// Issue 39 (7): a 64 MiB dense matrix of ones held ~10x its size once built
// (40 bytes per pair for 4 bytes of text). The memory limit stops each
// format at the record that passes it; a graph within it is built and
// holds no more than the limit.
TEST(MemoryLimit, RefusedAtTheRecordThatPassesIt) {
  const long long limit = 3 * tofa::kBytesPerRecord + 20;
  auto limited = [&](const std::string& content) {
    std::istringstream in(content);
    try {
      const CommGraph g =
          tofa::parse_graph(in, "m", GraphFormat::Auto, limits(64, "", limit, "MaxGraphBytes"));
      EXPECT_LE(g.memory_bytes() - 8 * (g.task_count() + 1), limit);
      return std::to_string(g.edge_count());
    } catch (const tofa::ParseError& e) {
      return std::string(e.what());
    }
  };
  const std::string refused =
      "4 communicating pairs so far would take " + std::to_string(4 * tofa::kBytesPerRecord) +
      " bytes in memory, expected at most " + std::to_string(limit) + " (MaxGraphBytes)";
  EXPECT_EQ(limited("0 1 5\n1 2 5\n2 3 5\n"), "3");
  EXPECT_EQ(limited("0 1 5\n1 2 5\n2 3 5\n3 4 5\n"), "m:4:1: " + refused);
  // Dense: a pair counts once whichever of its two entries is non-zero.
  EXPECT_EQ(limited("4\n0 1 1 0\n1 0 0 0\n0 0 0 1\n0 0 0 0\n"), "3");
  EXPECT_EQ(limited("4\n0 1 1 0\n1 0 0 0\n0 0 0 1\n0 1 0 0\n"), "m:5:3: " + refused);
  EXPECT_EQ(limited("%%MatrixMarket matrix coordinate real symmetric\n4 4 2\n2 1 5\n3 1 5\n"),
            "m:4:1: " + refused);
}

// ---------------------------------------------------------- MatrixMarket

TEST(MatrixMarket, GeneralReal) {
  // {0,1}: 5 + 1.5 (2 entries); {0,2}: 2 (1 entry); (2,2) is diagonal.
  const CommGraph g = parse(
      "%%MatrixMarket matrix coordinate real general\n"
      "% a comment\n"
      "3 3 4\n"
      "1 2 5\n"
      "2 1 1.5\n"
      "3 1 2\n"
      "2 2 9\n");
  EXPECT_EQ(g.task_count(), 3);
  const std::vector<CommEdge> edges = g.undirected_edges();
  ASSERT_EQ(edges.size(), 2u);
  expect_edge(edges[0], 0, 1, 6.5, 2);
  expect_edge(edges[1], 0, 2, 2, 1);
}

TEST(MatrixMarket, SymmetricEntryCountsOncePerDirection) {
  // G(1,0) = G(0,1) = 4, so w{0,1} = 8 with one message each way.
  const CommGraph g = parse(
      "%%MatrixMarket matrix coordinate integer symmetric\n"
      "3 3 2\n"
      "2 1 4\n"
      "3 3 7\n");
  EXPECT_EQ(g.task_count(), 3);
  const std::vector<CommEdge> edges = g.undirected_edges();
  ASSERT_EQ(edges.size(), 1u);
  expect_edge(edges[0], 0, 1, 8, 2);
}

TEST(MatrixMarket, PatternEntriesWeighOne) {
  // {0,1}: 1 + 1; {2,3}: 1.
  const CommGraph g = parse(
      "%%matrixmarket MATRIX Coordinate pattern general\n"
      "4 4 3\n"
      "1 2\n"
      "2 1\n"
      "4 3\n");
  EXPECT_EQ(g.task_count(), 4);
  const std::vector<CommEdge> edges = g.undirected_edges();
  ASSERT_EQ(edges.size(), 2u);
  expect_edge(edges[0], 0, 1, 2, 2);
  expect_edge(edges[1], 2, 3, 1, 1);
}

// -------------------------------------------------------- auto-detection

TEST(AutoDetect, ChoosesTheFormatFromTheFirstDataLine) {
  // One token: dense; "0 1 4" would be an invalid dense N.
  EXPECT_EQ(parse("# c\n\n2\n0 4\n0 0\n").total_bytes(), 4);
  // Three and four tokens: edge list.
  EXPECT_EQ(parse("# c\n0 1 4\n").total_bytes(), 4);
  EXPECT_EQ(parse("0 1 4 2\n").undirected_edges()[0].messages, 2);
  // Banner: MatrixMarket (1-based ids, so N = 2).
  const CommGraph mm = parse("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 4\n");
  EXPECT_EQ(mm.task_count(), 2);
  EXPECT_EQ(mm.total_bytes(), 4);
}

TEST(AutoDetect, OtherTokenCountsAreRejected) {
  EXPECT_EQ(parse_failure("\n0 1\n"),
            "src:2:0: expected the task count N or an edge 'i j bytes [msgs]', found 2 values");
}

TEST(AutoDetect, ExplicitFormatOverridesDetection) {
  EXPECT_EQ(parse_failure("5 1 4\n", GraphFormat::DenseMatrix),
            "src:1:3: expected only the task count N on the first line, found 3 values");
  EXPECT_EQ(parse_failure("3\n", GraphFormat::EdgeList),
            "src:1:0: expected 'i j bytes [msgs]', found 1 value");
  EXPECT_EQ(parse_failure("3 3 1\n", GraphFormat::MatrixMarket),
            "src:1:1: expected '%%MatrixMarket matrix coordinate <real|integer|pattern> "
            "<general|symmetric>'");
}

// ------------------------------------------------------- message matrix

TEST(MessageMatrix, SiblingFileGivesMessageCounts) {
  TempFile bytes(kDirected3, ".mat");
  // M(0,1) + M(1,0) = 4 + 2, M(1,2) + M(2,1) = 1 + 0, nothing between 0 and 2:
  // the {0,2} edge keeps its byte weight with zero messages.
  FileAt messages(tofa::message_matrix_path(bytes.path()), "3\n0 4 0\n2 0 1\n0 0 0\n");
  const std::vector<CommEdge> edges = tofa::read_graph(bytes.path()).undirected_edges();
  ASSERT_EQ(edges.size(), 3u);
  expect_edge(edges[0], 0, 1, 15, 6);
  expect_edge(edges[1], 0, 2, 1, 0);
  expect_edge(edges[2], 1, 2, 2, 1);
}

TEST(MessageMatrix, WithoutSiblingEachNonZeroEntryIsOneMessage) {
  TempFile bytes(kDirected3, ".mat");
  const std::vector<CommEdge> edges = tofa::read_graph(bytes.path()).undirected_edges();
  ASSERT_EQ(edges.size(), 3u);
  expect_edge(edges[0], 0, 1, 15, 2);
  expect_edge(edges[1], 0, 2, 1, 1);
  expect_edge(edges[2], 1, 2, 2, 1);
}

TEST(MessageMatrix, SiblingMustHaveTheSameTaskCount) {
  TempFile bytes(kDirected3, ".mat");
  const std::string sibling = tofa::message_matrix_path(bytes.path());
  // Checked before the rows, whose length would be wrong too.
  FileAt messages(sibling, "# counts\n 2\n0 1 0\n1 0 0\n");
  try {
    tofa::read_graph(bytes.path());
    FAIL() << "no ParseError";
  } catch (const tofa::ParseError& e) {
    EXPECT_EQ(std::string(e.what()), sibling + ":2:2: expected the task count 3 of '" +
                                         bytes.path() + "', found 2");
  }
}

TEST(MessageMatrix, SiblingContentIsValidated) {
  TempFile bytes(kDirected3, ".mat");
  const std::string sibling = tofa::message_matrix_path(bytes.path());
  FileAt messages(sibling, "3\n0 1 0\n1 0 0\n0 0\n");
  try {
    tofa::read_graph(bytes.path());
    FAIL() << "no ParseError";
  } catch (const tofa::ParseError& e) {
    EXPECT_EQ(std::string(e.what()), sibling + ":4:0: row 2 has 2 values, expected 3");
  }
}

// ------------------------------------------------------------- errors

TEST(GraphErrors, EmptyFile) {
  const std::string expected = ":1:0: empty file: expected the task count N on the first line";
  Failure f = read_failure("");
  EXPECT_EQ(f.what, f.path + expected);
  f = read_failure("# only a comment\n\n   \n");
  EXPECT_EQ(f.what, f.path + expected);
  f = read_failure("", GraphFormat::DenseMatrix);
  EXPECT_EQ(f.what, f.path + expected);
}

TEST(GraphErrors, BadTaskCount) {
  Failure f = read_failure("abc\n");
  EXPECT_EQ(f.what, f.path + ":1:1: expected a positive integer task count, found 'abc'");
  f = read_failure("# header\n  0\n");
  EXPECT_EQ(f.what, f.path + ":2:3: expected a positive integer task count, found '0'");
  f = read_failure("2.5\n");
  EXPECT_EQ(f.what, f.path + ":1:1: expected a positive integer task count, found '2.5'");
}

TEST(GraphErrors, ParseErrorCarriesItsParts) {
  TempFile file("2\n0 x1\n1 0\n");
  try {
    tofa::read_graph(file.path());
    FAIL() << "no ParseError";
  } catch (const tofa::ParseError& e) {
    EXPECT_EQ(e.file(), file.path());
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.column(), 3);
    EXPECT_EQ(e.message(), "expected a non-negative number, found 'x1'");
  }
}

TEST(GraphErrors, BadMatrixValues) {
  Failure f = read_failure("2\n0 x1\n1 0\n");
  EXPECT_EQ(f.what, f.path + ":2:3: expected a non-negative number, found 'x1'");
  f = read_failure("2\n0 -5\n1 0\n");
  EXPECT_EQ(f.what, f.path + ":2:3: expected a non-negative number, found '-5'");
  f = read_failure("2\n0 1\ninf 0\n");
  EXPECT_EQ(f.what, f.path + ":3:1: expected a non-negative number, found 'inf'");
  f = read_failure("2\n0 1\n1  nan\n");
  EXPECT_EQ(f.what, f.path + ":3:4: expected a non-negative number, found 'nan'");
  // Overflows to infinity.
  f = read_failure("2\n0 1e400\n1 0\n");
  EXPECT_EQ(f.what, f.path + ":2:3: expected a non-negative number, found '1e400'");
  // Hexadecimal is not decimal notation; "1e" is not a whole number.
  f = read_failure("2\n0 0x10\n1 0\n");
  EXPECT_EQ(f.what, f.path + ":2:3: expected a non-negative number, found '0x10'");
  f = read_failure("2\n0 1e\n1 0\n");
  EXPECT_EQ(f.what, f.path + ":2:3: expected a non-negative number, found '1e'");
}

TEST(GraphErrors, WrongRowLength) {
  // Row 2 (the third row) on line 4.
  Failure f = read_failure("4\n0 0 0 0\n0 0 0 0\n0 0 0\n0 0 0 0\n");
  EXPECT_EQ(f.what, f.path + ":4:0: row 2 has 3 values, expected 4");
  // Too many: the column of the first extra token "9" (byte offset 8).
  f = read_failure("4\n0 0 0 0\n0 0 0 0\n0 0 0 0 9\n0 0 0 0\n");
  EXPECT_EQ(f.what, f.path + ":4:9: row 2 has 5 values, expected 4");
}

TEST(GraphErrors, WrongRowCount) {
  // Four lines in the file, the last one being row 2.
  Failure f = read_failure("4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n");
  EXPECT_EQ(f.what, f.path + ":4:0: expected 4 rows, found 3");
  // Trailing comment and blank lines still count as lines of the file (6).
  f = read_failure("4\n0 0 0 0\n0 0 0 0\n0 0 0 0\n# end\n\n");
  EXPECT_EQ(f.what, f.path + ":6:0: expected 4 rows, found 3");
  f = read_failure("2\n0 1\n1 0\n5 5\n");
  EXPECT_EQ(f.what, f.path + ":4:1: expected 2 rows, found more");
}

TEST(GraphErrors, EdgeListLines) {
  Failure f = read_failure("0 1 5\n2 3\n");
  EXPECT_EQ(f.what, f.path + ":2:0: expected 'i j bytes [msgs]', found 2 values");
  f = read_failure("0 1 5\n0 1 5 1 9\n");
  EXPECT_EQ(f.what, f.path + ":2:9: expected 'i j bytes [msgs]', found 5 values");
  f = read_failure("0 1 5\n1.5 2 3\n");
  EXPECT_EQ(f.what, f.path + ":2:1: expected a non-negative integer task id, found '1.5'");
  f = read_failure("0 -1 5\n");
  EXPECT_EQ(f.what, f.path + ":1:3: expected a non-negative integer task id, found '-1'");
  f = read_failure("0 1 many\n");
  EXPECT_EQ(f.what, f.path + ":1:5: expected a non-negative number, found 'many'");
  f = read_failure("0 1 5 -2\n");
  EXPECT_EQ(f.what, f.path + ":1:7: expected a non-negative number, found '-2'");
}

TEST(GraphErrors, MatrixMarketBanner) {
  const std::string banner =
      "expected '%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>'";
  // "array" starts at byte offset 22.
  Failure f = read_failure("%%MatrixMarket matrix array real general\n1 1 0\n");
  EXPECT_EQ(f.what, f.path + ":1:23:" + " " + banner);
  f = read_failure("%%MatrixMarket matrix coordinate complex general\n1 1 0\n");
  EXPECT_EQ(f.what, f.path + ":1:34: " + banner);
  f = read_failure("%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n");
  EXPECT_EQ(f.what, f.path + ":1:39: " + banner);
  f = read_failure("%%MatrixMarket matrix coordinate\n1 1 0\n");
  EXPECT_EQ(f.what, f.path + ":1:0: " + banner);
}

TEST(GraphErrors, MatrixMarketSizeLine) {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n% c\n";
  Failure f = read_failure(head + "3 3\n");
  EXPECT_EQ(f.what, f.path + ":3:0: expected 'rows cols entries', found 2 values");
  f = read_failure(head + "3 x 1\n");
  EXPECT_EQ(f.what, f.path + ":3:3: expected 'rows cols entries', found 'x'");
  f = read_failure(head + "3 4 1\n1 2 1\n");
  EXPECT_EQ(f.what, f.path + ":3:0: matrix is 3 x 4, expected a square matrix");
}

TEST(GraphErrors, MatrixMarketEntries) {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n";
  // Six lines; the file ends after the fourth entry.
  Failure f = read_failure(head + "4 4 5\n1 2 1\n2 3 1\n3 4 1\n4 1 1\n");
  EXPECT_EQ(f.what, f.path + ":6:0: expected 5 entries, found 4");
  f = read_failure(head + "2 2 1\n1 2 1\n2 1 1\n");
  EXPECT_EQ(f.what, f.path + ":4:1: expected 1 entries, found more");
  f = read_failure(head + "4 4 1\n1 7 1\n");
  EXPECT_EQ(f.what, f.path + ":3:3: task id 7 is outside 1..4");
  f = read_failure(head + "4 4 1\n0 1 1\n");
  EXPECT_EQ(f.what, f.path + ":3:1: task id 0 is outside 1..4");
  f = read_failure(head + "4 4 1\n1 2 -3\n");
  EXPECT_EQ(f.what, f.path + ":3:5: expected a non-negative number, found '-3'");
  f = read_failure(head + "4 4 1\n1 2\n");
  EXPECT_EQ(f.what, f.path + ":3:0: expected 'i j value', found 2 values");
}

TEST(GraphErrors, UnreadableFileIsAnErrorButNotAParseError) {
  const std::string path = "/nonexistent-tofa-dir/comm.mat";
  try {
    tofa::read_graph(path);
    FAIL() << "no error";
  } catch (const tofa::ParseError&) {
    FAIL() << "a missing file is not a parse error";
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot open graph file '" + path + "': No such file or directory");
  }
}

}  // namespace

// Issue 10: weights each finite but summing to infinity were accepted; the
// placement then recorded total_bytes=inf and the state file failed to load.
TEST(GraphLimits, TotalOfFiniteWeightsMustStayFinite) {
  EXPECT_EQ(parse_failure("0 1 1e150\n1 2 1e150\n"),
            "src:2:5: the numbers of this file add up to more than 1e+150 here, expected a "
            "smaller total");
  EXPECT_EQ(parse_failure("2\n0 1e150\n1e150 0\n"),
            "src:3:1: the numbers of this file add up to more than 1e+150 here, expected a "
            "smaller total");
  const CommGraph large = parse("0 1 1e140\n1 2 1e140\n");  // 2e140: below the limit
  ASSERT_EQ(large.task_count(), 3);
  EXPECT_EQ(large.offsets(), (std::vector<std::int64_t>{0, 1, 3, 4}));
  EXPECT_EQ(large.adjacency(), (std::vector<int>{1, 0, 2, 1}));
  EXPECT_EQ(large.bytes(), (std::vector<double>{1e140, 1e140, 1e140, 1e140}));
  EXPECT_DOUBLE_EQ(large.total_bytes(), 2e140);
  EXPECT_THROW(CommGraph::from_directed_edges(2, {{0, 1, 1e308, 1}, {1, 0, 1e308, 1}}),
               tofa::Error);
}

TEST(GraphLimits, ControlCharactersInBadInputAreEscaped) {
  const std::string message = parse_failure("2\n0 \x1b[31mred\x07\n1 0\n");
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
  EXPECT_NE(message.find("\\x1b[31mred\\x07"), std::string::npos) << message;
}
