// The C API must turn every failure into TOFA_ERROR + text, never an exception.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capi/tofa.h"
#include "fixtures.hpp"

namespace {

class CApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(tofa_topology_load("torus:4x4x4", &topology, err, sizeof err), TOFA_OK) << err;
  }
  void TearDown() override { tofa_topology_free(topology); }
  tofa_topology_t* topology = nullptr;
  char err[256] = "";
};

TEST_F(CApiTest, TopologyQueries) {
  EXPECT_EQ(tofa_topology_node_count(topology), 64);
  EXPECT_EQ(tofa_topology_cores_per_node(topology), 1);
  EXPECT_EQ(tofa_topology_node_index(topology, "n21"), 21);
  EXPECT_EQ(tofa_topology_node_index(topology, "nope"), -1);
  EXPECT_STREQ(tofa_topology_node_name(topology, 5), "n5");
  EXPECT_EQ(tofa_topology_node_name(topology, 64), nullptr);
  // (0,0,0) -> (3,2,0): x wraps 0->3 in one hop, then y 0->1->2: nodes 0, 3, 7, 11.
  EXPECT_EQ(tofa_topology_hops(topology, 0, 11), 3);
  int nodes[8];
  ASSERT_EQ(tofa_topology_route(topology, 0, 11, nodes, 8), 4);
  EXPECT_EQ(std::vector<int>(nodes, nodes + 4), (std::vector<int>{0, 3, 7, 11}));
  EXPECT_EQ(tofa_topology_route(topology, 0, 11, nodes, 3), -1);
  EXPECT_EQ(tofa_topology_hops(topology, 0, 64), -1);
}

TEST_F(CApiTest, BadInputsReturnErrorsWithText) {
  tofa_topology_t* other = nullptr;
  EXPECT_EQ(tofa_topology_load("torus:4xq", &other, err, sizeof err), TOFA_ERROR);
  EXPECT_NE(std::string(err).find("bad topology spec 'torus:4xq'"), std::string::npos) << err;
  EXPECT_EQ(other, nullptr);

  tofa_graph_t* graph = nullptr;
  const char text[] = "2\n0 1\n-1 0\n";
  EXPECT_EQ(tofa_graph_parse(text, sizeof text - 1, "job.mat", &graph, err, sizeof err),
            TOFA_ERROR);
  EXPECT_STREQ(err, "job.mat:3:1: expected a non-negative number, found '-1'");

  EXPECT_EQ(tofa_graph_load("/nonexistent/g.mat", &graph, err, sizeof err), TOFA_ERROR);
  EXPECT_NE(std::string(err).find("cannot open graph file '/nonexistent/g.mat'"),
            std::string::npos);
}

TEST_F(CApiTest, ErrorTextIsTruncatedSafely) {
  tofa_graph_t* graph = nullptr;
  char tiny[8];
  EXPECT_EQ(tofa_graph_load("/nonexistent/g.mat", &graph, tiny, sizeof tiny), TOFA_ERROR);
  EXPECT_EQ(std::string(tiny), "cannot ");
  EXPECT_EQ(tofa_graph_load("/nonexistent/g.mat", &graph, nullptr, 0), TOFA_ERROR);
}

TEST_F(CApiTest, MapAndEvaluate) {
  tofa_graph_t* graph = nullptr;
  const char text[] = "4\n0 5 0 0\n5 0 5 0\n0 5 0 5\n0 0 5 0\n";
  ASSERT_EQ(tofa_graph_parse(text, sizeof text - 1, "chain", &graph, err, sizeof err), TOFA_OK)
      << err;
  EXPECT_EQ(tofa_graph_task_count(graph), 4);

  tofa_map_request_t request;
  tofa_map_request_init(&request);
  request.strategy = "default-slurm";
  int candidates[] = {4, 5, 6, 7, 8};  // 4..7 are the row y=1, z=0
  request.candidates = candidates;
  request.candidate_count = 5;
  int placement[4];
  ASSERT_EQ(tofa_map(topology, graph, &request, placement, 4, err, sizeof err), TOFA_OK) << err;
  EXPECT_EQ(std::vector<int>(placement, placement + 4), (std::vector<int>{4, 5, 6, 7}));

  tofa_metrics_t metrics;
  ASSERT_EQ(tofa_evaluate(topology, graph, placement, 4, nullptr, &metrics, err, sizeof err),
            TOFA_OK) << err;
  // Three edges of 10 bytes each (5 + 5), neighbours along x: 1 hop each.
  EXPECT_EQ(metrics.tasks, 4);
  EXPECT_DOUBLE_EQ(metrics.hop_bytes, 30.0);
  EXPECT_DOUBLE_EQ(metrics.average_hops, 1.0);

  request.strategy = "nope";
  EXPECT_EQ(tofa_map(topology, graph, &request, placement, 4, err, sizeof err), TOFA_ERROR);
  EXPECT_NE(std::string(err).find("unknown strategy 'nope'"), std::string::npos);
  request.strategy = nullptr;
  EXPECT_EQ(tofa_map(topology, graph, &request, placement, 3, err, sizeof err), TOFA_ERROR);
  EXPECT_STREQ(err, "tofa_map: placement array too small");
  tofa_graph_free(graph);
}

TEST(CApiStrategies, NamesEndWithNull) {
  int count = 0;
  while (tofa_strategy_name(count) != nullptr) ++count;
  EXPECT_GE(count, 4);
  EXPECT_STREQ(tofa_strategy_name(0), "default-slurm");
  EXPECT_EQ(tofa_strategy_name(-1), nullptr);
}

}  // namespace

namespace {

// A tofa.conf file holds service settings beside the topology: the topology
// loader validates them and keeps its line numbers.
TEST(CApiTopologyFile, SkipsServiceSettingsAndReportsTheirErrors) {
  tofa_test::TempFile good("Dims=2x2 Wrap=no\nServicePort=7000\nNodeName=a[0-3]\n", ".conf");
  tofa_topology_t* topology = nullptr;
  char err[256] = "";
  ASSERT_EQ(tofa_topology_load(good.path().c_str(), &topology, err, sizeof err), TOFA_OK) << err;
  EXPECT_EQ(tofa_topology_node_index(topology, "a3"), 3);
  tofa_topology_free(topology);

  tofa_test::TempFile bad("Dims=2x2 Wrap=no\nServicePort=x\nNodeName=a[0-3]\n", ".conf");
  EXPECT_EQ(tofa_topology_load(bad.path().c_str(), &topology, err, sizeof err), TOFA_ERROR);
  EXPECT_EQ(std::string(err).rfind(bad.path() + ":2:", 0), 0u) << err;
}

}  // namespace
