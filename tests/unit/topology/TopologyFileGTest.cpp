// Topology files (tofa.conf) and Slurm hostlist expansion. Every parse error
// is checked with its exact text, line and column.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "topology/topology.hpp"

namespace {

using Names = std::vector<std::string>;

tofa::Topology parse(const std::string& text) {
  std::istringstream in(text);
  return tofa::parse_topology(in, "test.conf");
}

/// Parses `text` and expects "test.conf:LINE:COLUMN: MESSAGE".
void expect_error(const std::string& text, int line, int column, const std::string& message) {
  SCOPED_TRACE(text);
  try {
    parse(text);
    ADD_FAILURE() << "parsed without error";
  } catch (const tofa::ParseError& e) {
    EXPECT_EQ(e.message(), message);
    EXPECT_EQ(e.line(), line);
    EXPECT_EQ(e.column(), column);
    EXPECT_EQ(std::string(e.what()), "test.conf:" + std::to_string(line) + ":" +
                                         std::to_string(column) + ": " + message);
  }
}

std::string hostlist_error(const std::string& hostlist) {
  try {
    tofa::expand_hostlist(hostlist);
  } catch (const tofa::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(HostlistTest, Expansions) {
  EXPECT_EQ(tofa::expand_hostlist("n[000-003]"), (Names{"n000", "n001", "n002", "n003"}));
  EXPECT_EQ(tofa::expand_hostlist("n[1-3,7]"), (Names{"n1", "n2", "n3", "n7"}));
  // Leftmost bracket varies slowest.
  EXPECT_EQ(tofa::expand_hostlist("a[1-2]b[3-4]"), (Names{"a1b3", "a1b4", "a2b3", "a2b4"}));
  EXPECT_EQ(tofa::expand_hostlist("n1,n[3-4]"), (Names{"n1", "n3", "n4"}));
  EXPECT_EQ(tofa::expand_hostlist("n[3-4],n1"), (Names{"n3", "n4", "n1"}));
  // No leading zero: no padding; a leading zero pads to that width.
  EXPECT_EQ(tofa::expand_hostlist("n[8-11]"), (Names{"n8", "n9", "n10", "n11"}));
  EXPECT_EQ(tofa::expand_hostlist("n[08-11]"), (Names{"n08", "n09", "n10", "n11"}));
  EXPECT_EQ(tofa::expand_hostlist("n[07,10]"), (Names{"n07", "n10"}));
  EXPECT_EQ(tofa::expand_hostlist("n[9-10]-ib"), (Names{"n9-ib", "n10-ib"}));
  EXPECT_EQ(tofa::expand_hostlist("plain"), (Names{"plain"}));
  EXPECT_EQ(tofa::expand_hostlist("[1-2]"), (Names{"1", "2"}));
  EXPECT_EQ(tofa::expand_hostlist("n[000-511]").size(), 512u);
  EXPECT_EQ(tofa::expand_hostlist("n[000-511]")[511], "n511");
}

TEST(HostlistTest, Errors) {
  EXPECT_EQ(hostlist_error("n[1-3"), "bad hostlist 'n[1-3': unclosed '['");
  EXPECT_EQ(hostlist_error("n[5-3]"), "bad hostlist 'n[5-3]': range 5-3 is descending");
  EXPECT_EQ(hostlist_error("n[a-3]"),
            "bad hostlist 'n[a-3]': expected a number in range, found 'a'");
  EXPECT_EQ(hostlist_error("n[1-]"), "bad hostlist 'n[1-]': expected a number in range, found ']'");
  EXPECT_EQ(hostlist_error("n[]"), "bad hostlist 'n[]': expected a number in range, found ']'");
  EXPECT_EQ(hostlist_error("n[1,]"), "bad hostlist 'n[1,]': expected a number in range, found ']'");
  EXPECT_EQ(hostlist_error("n[1-3x]"),
            "bad hostlist 'n[1-3x]': expected '-', ',' or ']' after a number, found 'x'");
  EXPECT_EQ(hostlist_error("n1]"), "bad hostlist 'n1]': ']' without '['");
  EXPECT_EQ(hostlist_error("n[1[2]]"), "bad hostlist 'n[1[2]]': '[' inside '[...]'");
  EXPECT_EQ(hostlist_error("n1,,n2"), "bad hostlist 'n1,,n2': expected a host name at position 4");
  EXPECT_EQ(hostlist_error(""), "bad hostlist '': expected a host name at position 1");
  EXPECT_EQ(hostlist_error("n[0-99999999]"),
            "bad hostlist 'n[0-99999999]': expands to more than 1048576 names");
  // Issue 10: many ranges each under the limit were all stored before the
  // total was checked (16 x 4194304 names reached 2 GB).
  std::string many = "n[0-4194303";
  for (int i = 0; i < 15; ++i) many += ",0-4194303";
  many += "]";
  EXPECT_EQ(tofa::expand_hostlist("n[0-9,20-29]", 20).size(), 20u);
  EXPECT_THROW(tofa::expand_hostlist("n[0-9,20-30]", 20), tofa::Error);
  EXPECT_NE(hostlist_error(many).find("expands to more than 1048576 names"), std::string::npos);
  EXPECT_NE(hostlist_error("a[0-999]b[0-999]c[0-999]").find("expands to more than"),
            std::string::npos);
  EXPECT_NE(hostlist_error(std::string(300, 'x') + "[1-2]").find("longer than 255"),
            std::string::npos);
  EXPECT_EQ(hostlist_error("n[1234567890]"),
            "bad hostlist 'n[1234567890]': number 1234567890 has more than 9 digits");
}

TEST(TopologyFileTest, RangesCoordsCommentsAndCase) {
  const tofa::Topology t = parse(
      "# 2x2x2, mesh in z\n"
      "Dims=2x2x2 Wrap=yes,yes,no CoresPerNode=4\n"
      "\n"
      "NodeName=a[0-1]                  # ids 0,1; cursor -> 2\n"
      "nodename=b[01-02] coord=0,0,1    # (0,0,1)=4, then 5; cursor -> 6\n"
      "NodeName=c[6-7]                  # ids 6,7\n"
      "  NodeName=d2,d3\tCoord=0,1,0\r\n"   // (0,1,0)=2, then 3
      "# end\n");
  EXPECT_EQ(t.dims(), (std::vector<int>{2, 2, 2}));
  EXPECT_EQ(t.wrap(), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(t.cores_per_node(), 4);
  EXPECT_EQ(t.node_names(), (Names{"a0", "a1", "d2", "d3", "b01", "b02", "c6", "c7"}));
  EXPECT_EQ(t.node_by_name("b02"), 5);
}

TEST(TopologyFileTest, OneWrapValueAndDefaults) {
  const tofa::Topology mesh = parse("DIMS=3 WRAP=No\nNodeName=x[1-3]\n");
  EXPECT_EQ(mesh.wrap(), (std::vector<bool>{false}));
  EXPECT_EQ(mesh.cores_per_node(), 1);
  const tofa::Topology torus = parse("Dims=8x8x8\nNodeName=n[000-511]\n");
  EXPECT_TRUE(torus.is_full_torus());
  EXPECT_EQ(torus.node_name(7), "n007");
  EXPECT_EQ(torus.node_name(511), "n511");
}

TEST(TopologyFileTest, ReadFileAndLoad) {
  tofa_test::TempFile file("Dims=2x2 Wrap=no\nNodeName=r[0-3]\n", ".conf");
  const tofa::Topology t = tofa::read_topology_file(file.path());
  EXPECT_EQ(t.node_name(3), "r3");
  EXPECT_EQ(tofa::load_topology(file.path()).describe(), "mesh 2x2, 1 core(s) per node");
  EXPECT_EQ(tofa::load_topology("torus:2x2:cores=3").describe(),
            "torus 2x2, 3 core(s) per node");
  EXPECT_EQ(tofa::load_topology("mesh:5").node_count(), 5);

  try {
    tofa::read_topology_file("/nonexistent/tofa.conf");
    ADD_FAILURE() << "opened a missing file";
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot open topology file '/nonexistent/tofa.conf': No such file or directory");
  }
  try {
    tofa::read_topology_file("/");
    ADD_FAILURE() << "read a directory";
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot open topology file '/': Is a directory");
  }
  tofa_test::TempFile bad("Dims=2\nNodeName=a,b,c\n", ".conf");
  try {
    tofa::read_topology_file(bad.path());
    ADD_FAILURE() << "parsed a bad file";
  } catch (const tofa::ParseError& e) {
    EXPECT_EQ(e.file(), bad.path());
    EXPECT_EQ(e.line(), 2);
  }
}

TEST(TopologyFileTest, StatementErrors) {
  expect_error("# comment\nNodeName=n[0-7]\nDims=2x2x2\n", 2, 1,
               "expected 'Dims=AxBxC' before any NodeName line");
  expect_error("  NodeName=n0\n", 1, 1, "expected 'Dims=AxBxC' before any NodeName line");
  // "Dims=2x2x2 " is 11 bytes, so Foo starts at column 12.
  expect_error("Dims=2x2x2 Foo=1\n", 1, 12,
               "unknown key 'Foo': expected Dims, Wrap, CoresPerNode, NodeName or Coord");
  // "NodeName=n[0-7] " is 16 bytes.
  expect_error("Dims=2x2x2\nNodeName=n[0-7] junk\n", 2, 17, "expected 'Key=Value', found 'junk'");
  expect_error("Dims=2x2x2\n=3\n", 2, 1, "expected 'Key=Value', found '=3'");
  expect_error("Dims=2x2x2\nNodeName=n[0-7] Wrap=no\n", 2, 17, "'Wrap' belongs on the Dims line");
  expect_error("Dims=2x2x2 Coord=0,0,0\n", 1, 12, "'Coord' belongs on a NodeName line");
  expect_error("Wrap=no\nDims=2\n", 1, 1, "'Wrap' belongs on the Dims line");
  expect_error("Dims=2x2x2\n# again\nDims=2x2x2\n", 3, 1, "Dims is given twice (first on line 1)");
  expect_error("Dims=2 dims=3\n", 1, 8, "'Dims' is given twice on one line");
  expect_error("", 1, 0, "expected 'Dims=AxBxC', found no Dims line");
  expect_error("# nothing\n\n", 2, 0, "expected 'Dims=AxBxC', found no Dims line");
}

TEST(TopologyFileTest, ValueErrors) {
  // Values start after "Key=": Dims value at column 6.
  const std::string dims_hint = "': expected positive integers separated by 'x'";
  expect_error("Dims=2xx2\n", 1, 6, "bad Dims '2xx2" + dims_hint);
  expect_error("Dims=2x0\n", 1, 6, "bad Dims '2x0" + dims_hint);
  expect_error("Dims=\n", 1, 6, "bad Dims '" + dims_hint);
  expect_error("Dims=2x-2\n", 1, 6, "bad Dims '2x-2" + dims_hint);
  expect_error("Dims=100000x100000\n", 1, 6,
               "topology 100000x100000 has more than 1048576 nodes");
  // Issue 10: a 20-byte file used to build 410 MB of names before failing.
  expect_error("Dims=7x9x4x47x9x4x9\n", 1, 6,
               "topology 7x9x4x47x9x4x9 has more than 1048576 nodes");
  // "Dims=2x2x2 Wrap=" is 16 bytes.
  expect_error("Dims=2x2x2 Wrap=yes,no\n", 1, 17, "Wrap needs 1 or 3 values, found 2");
  expect_error("Dims=2 Wrap=yes,no\n", 1, 13, "Wrap needs 1 value, found 2");
  expect_error("Dims=2x2x2 Wrap=yes,maybe,no\n", 1, 17,
               "bad Wrap value 'maybe': expected yes or no");
  // "Dims=2x2x2 CoresPerNode=" is 24 bytes.
  expect_error("Dims=2x2x2 CoresPerNode=0\n", 1, 25,
               "bad CoresPerNode '0': expected a positive integer");
  expect_error("Dims=2x2x2 CoresPerNode=two\n", 1, 25,
               "bad CoresPerNode 'two': expected a positive integer");
  // "NodeName=n0 Coord=" is 18 bytes.
  expect_error("Dims=2x2x2\nNodeName=n0 Coord=1,2\n", 2, 19,
               "bad Coord '1,2': expected 3 integers separated by ','");
  expect_error("Dims=2x2x2\nNodeName=n0 Coord=1,a,0\n", 2, 19,
               "bad Coord '1,a,0': expected 3 integers separated by ','");
  expect_error("Dims=8x8x8\nNodeName=n0 Coord=8,0,0\n", 2, 19, "Coord 8,0,0 is outside 8x8x8");
  expect_error("Dims=8x8x8\nNodeName=n0 Coord=0,-1,0\n", 2, 19, "Coord 0,-1,0 is outside 8x8x8");
  // Hostlist errors point at the NodeName value (column 10).
  expect_error("Dims=2x2x2\nNodeName=n[0-7\n", 2, 10, "bad hostlist 'n[0-7': unclosed '['");
}

TEST(TopologyFileTest, NamingErrors) {
  expect_error(
      "Dims=2x2x2\n"
      "NodeName=n[0-3]\n"
      "NodeName=n[4-5]\n"
      "NodeName=n5,n6\n",
      4, 10, "node 'n5' is listed twice (first on line 3)");
  expect_error("Dims=2x2x2\nNodeName=n[0-2],n1\n", 2, 10,
               "node 'n1' is listed twice (first on line 2)");
  // n1 gets id 1 = (1,0,0) on line 3; line 4 gives (1,0,0) to n7.
  expect_error(
      "Dims=2x2x2\n"
      "# two nodes\n"
      "NodeName=n[0-1]\n"
      "NodeName=n7 Coord=1,0,0\n",
      4, 10, "coordinate 1,0,0 is given to 'n7' and to 'n1' (line 3)");
  expect_error("Dims=2x2x2\nNodeName=n[0-9]\n", 2, 10,
               "NodeName n[0-9] runs past the last coordinate of 2x2x2");
  // From (1,1,1) = 7 there is room for one name only.
  expect_error("Dims=2x2x2\nNodeName=n[0-1] Coord=1,1,1\n", 2, 10,
               "NodeName n[0-1] runs past the last coordinate of 2x2x2");
  // ids 0-4 named; 5 = (1,0,1), 6 and 7 are missing. Reported on the last line.
  expect_error("Dims=2x2x2\nNodeName=n[0-4]\n# end\n", 3, 0,
               "3 coordinates have no NodeName, the first is 1,0,1");
  // The cursor continues after a Coord line: ids 6,7 then 0-4; 5 = (1,0,1) is missing.
  expect_error("Dims=2x2x2\nNodeName=x,y Coord=0,1,1\nNodeName=n[0-4] Coord=0,0,0\n", 3, 0,
               "1 coordinate has no NodeName: 1,0,1");
  expect_error("Dims=2x2\n", 1, 0, "4 coordinates have no NodeName, the first is 0,0");
}

}  // namespace
