// Outage models, heartbeat histories, fault files, Equation 1 and abort probability.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "faults/faults.hpp"
#include "faults/route_faults.hpp"
#include "faults/route_link_costs.hpp"
#include "fixtures.hpp"
#include "graph/generators.hpp"
#include "graph/graph.hpp"
#include "topology/topology.hpp"

namespace {

using tofa::Error;
using tofa::FaultCost;
using tofa::HeartbeatHistory;
using tofa::Link;
using tofa::OutageModel;
using tofa::ParseError;
using tofa_test::TempFile;

// what() of the exception `statement` throws, or a marker when it throws none.
template <typename Exception, typename Statement>
std::string error_text(Statement statement) {
  try {
    statement();
  } catch (const Exception& error) {
    return error.what();
  }
  return "<no exception>";
}

OutageModel ewma(double alpha) {
  OutageModel model;
  model.kind = OutageModel::Kind::Ewma;
  model.alpha = alpha;
  return model;
}

OutageModel window(int size) {
  OutageModel model;
  model.kind = OutageModel::Kind::MovingWindow;
  model.window = size;
  return model;
}

// ---------------------------------------------------------------- OutageModel

TEST(OutageModel, ParsesBothKindsAndDefaults) {
  OutageModel model = OutageModel::parse("window:25");
  EXPECT_EQ(model.kind, OutageModel::Kind::MovingWindow);
  EXPECT_EQ(model.window, 25);

  model = OutageModel::parse("ewma:0.25");
  EXPECT_EQ(model.kind, OutageModel::Kind::Ewma);
  EXPECT_EQ(model.alpha, 0.25);

  model = OutageModel::parse("ewma:1");
  EXPECT_EQ(model.alpha, 1.0);

  model = OutageModel::parse("window");
  EXPECT_EQ(model.kind, OutageModel::Kind::MovingWindow);
  EXPECT_EQ(model.window, 100);

  model = OutageModel::parse("ewma");
  EXPECT_EQ(model.kind, OutageModel::Kind::Ewma);
  EXPECT_EQ(model.alpha, 0.1);
}

TEST(OutageModel, RejectsBadTextWithExactMessage) {
  for (const std::string text : {"window:0", "window:-3", "window:abc", "window:", "window:10x",
                                 "window:1.5", "ewma:0", "ewma:1.5", "ewma:-0.1", "ewma:nan",
                                 "ewma:", "moving:10", "", "Window:10", "window:10:2"}) {
    EXPECT_EQ(error_text<Error>([&] { OutageModel::parse(text); }),
              "bad outage model '" + text +
                  "': expected 'window:N' (N >= 1) or 'ewma:A' (0 < A <= 1)")
        << "text = " << text;
  }
}

TEST(OutageModel, ToStringGivesBackTheParsedForm) {
  for (const std::string text : {"window:100", "window:1", "ewma:0.1", "ewma:0.25", "ewma:1"}) {
    EXPECT_EQ(OutageModel::parse(text).to_string(), text);
  }
  EXPECT_EQ(OutageModel::parse("window").to_string(), "window:100");
  EXPECT_EQ(OutageModel::parse("ewma").to_string(), "ewma:0.1");
}

// ----------------------------------------------------------- HeartbeatHistory

TEST(HeartbeatHistory, NoHeartbeatMeansNoOutage) {
  HeartbeatHistory history;
  EXPECT_EQ(history.outage_probability(window(10)), 0.0);
  EXPECT_EQ(history.outage_probability(ewma(0.5)), 0.0);
}

TEST(HeartbeatHistory, EwmaFollowsTheRecurrence) {
  // alpha = 0.5, e starts at 0, e <- 0.5 * missed + 0.5 * e:
  //   miss:   0.5 * 1 + 0.5 * 0     = 0.5
  //   answer: 0.5 * 0 + 0.5 * 0.5   = 0.25
  //   miss:   0.5 * 1 + 0.5 * 0.25  = 0.625
  // (all exact in binary floating point).
  const OutageModel model = ewma(0.5);
  HeartbeatHistory history;
  history.record(false, model);
  EXPECT_EQ(history.outage_probability(model), 0.5);
  history.record(true, model);
  EXPECT_EQ(history.outage_probability(model), 0.25);
  history.record(false, model);
  EXPECT_EQ(history.outage_probability(model), 0.625);
  EXPECT_EQ(history.ewma(), 0.625);
  EXPECT_EQ(history.answered_total(), 1u);
  EXPECT_EQ(history.missed_total(), 2u);
}

TEST(HeartbeatHistory, MovingWindowForgetsTheOldest) {
  // window = 3; M = missed, A = answered. After each heartbeat the window is:
  //   M        -> 1/1 missed
  //   M A      -> 1/2
  //   M A M    -> 2/3
  //   A M A    -> 1/3 (the first M fell out)
  //   M A A    -> 1/3
  //   A A A    -> 0
  const OutageModel model = window(3);
  const bool answered[] = {false, true, false, true, true, true};
  const double expected[] = {1.0, 0.5, 2.0 / 3, 1.0 / 3, 1.0 / 3, 0.0};
  HeartbeatHistory history;
  for (int i = 0; i < 6; ++i) {
    history.record(answered[i], model);
    EXPECT_DOUBLE_EQ(history.outage_probability(model), expected[i]) << "after heartbeat " << i;
  }
  EXPECT_EQ(history.recent(), std::deque<bool>({true, true, true}));
  EXPECT_EQ(history.answered_total(), 4u);
  EXPECT_EQ(history.missed_total(), 2u);
}

TEST(HeartbeatHistory, TextFormIsOneReadableLine) {
  // The EWMA example above, kept in a window of 100: bits oldest first.
  const OutageModel model = ewma(0.5);
  HeartbeatHistory history;
  history.record(false, model);
  history.record(true, model);
  history.record(false, model);
  EXPECT_EQ(history.to_text(), "answered=1 missed=2 ewma=0.625 recent=010");
  EXPECT_EQ(HeartbeatHistory().to_text(), "answered=0 missed=0 ewma=0 recent=");
}

TEST(HeartbeatHistory, TextRoundTripIsExact) {
  // alpha = 0.1 gives EWMA values with long binary expansions.
  const OutageModel model = ewma(0.1);
  HeartbeatHistory history;
  for (int i = 0; i < 137; ++i) history.record(i % 7 != 3 && i % 11 != 5, model);
  const HeartbeatHistory copy = HeartbeatHistory::from_text(history.to_text());
  EXPECT_EQ(copy.ewma(), history.ewma());  // bit-exact, not approximately
  EXPECT_EQ(copy.recent(), history.recent());
  EXPECT_EQ(copy.answered_total(), history.answered_total());
  EXPECT_EQ(copy.missed_total(), history.missed_total());
  EXPECT_EQ(copy.to_text(), history.to_text());

  const HeartbeatHistory empty = HeartbeatHistory::from_text(HeartbeatHistory().to_text());
  EXPECT_TRUE(empty.recent().empty());
  EXPECT_EQ(empty.ewma(), 0.0);
}

TEST(HeartbeatHistory, FromTextRejectsBadInput) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"answered=1 missed=2 ewma=0.5",
       "expected 'answered=N missed=N ewma=E recent=BITS', missing 'recent='"},
      {"", "expected 'answered=N missed=N ewma=E recent=BITS', missing 'answered='"},
      {"missed=2 answered=1 ewma=0.5 recent=",
       "expected 'answered=...', found 'missed=2'"},
      {"answered=x missed=2 ewma=0.5 recent=",
       "expected a count after 'answered=', found 'x'"},
      {"answered=1 missed=-2 ewma=0.5 recent=",
       "expected a count after 'missed=', found '-2'"},
      {"answered=1 missed=2 ewma=1.5 recent=",
       "expected a number between 0 and 1 after 'ewma=', found '1.5'"},
      {"answered=1 missed=2 ewma=0.5 recent=01x",
       "expected only 0 (missed) and 1 (answered) after 'recent=', found '01x'"},
      {"answered=1 missed=2 ewma=0.5 recent=011",
       "recent heartbeats exceed the answered/missed totals"},
      {"answered=1 missed=2 ewma=0.5 recent=01 more",
       "unexpected 'more' after recent=..."},
  };
  for (const auto& [text_case, expected] : cases) {
    const std::string& text = text_case;  // clang before 16 cannot capture a structured binding
    EXPECT_EQ(error_text<Error>([&] { HeartbeatHistory::from_text(text); }),
              "bad heartbeat history '" + text + "': " + expected);
  }
}

// ----------------------------------------------------------------- fault file

TEST(FaultFile, ReadsNamesIdsAndComments) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  TempFile file(
      "# node outage probabilities\n"
      "n3 0.02\n"
      "\n"
      "   5\t0.5   # by numeric id\n"
      "n63 1\n"
      "n0 0\n");
  const std::vector<double> outage = tofa::read_fault_file(file.path(), topology);
  ASSERT_EQ(outage.size(), 64u);
  for (int node = 0; node < 64; ++node) {
    const double expected = node == 3 ? 0.02 : node == 5 ? 0.5 : node == 63 ? 1.0 : 0.0;
    EXPECT_EQ(outage[node], expected) << "node = " << node;
  }
}

TEST(FaultFile, UsesTheTopologysNodeNames) {
  tofa::Topology topology({2, 2}, {false, false});
  topology.set_node_names({"cn-a", "cn-b", "cn-c", "cn-d"});
  std::istringstream in("cn-c 0.25\n1 0.5\n");
  EXPECT_EQ(tofa::parse_faults(in, "faults.txt", topology),
            std::vector<double>({0, 0.5, 0.25, 0}));
}

TEST(FaultFile, ReportsErrorsWithFileLineAndColumn) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"n1 0.1\nzz 0.5\n", ":2:1: unknown node 'zz'"},
      {"64 0.5\n", ":1:1: unknown node '64'"},
      {"n1 1.5\n", ":1:4: expected a probability between 0 and 1, found '1.5'"},
      {"n1  -0.1\n", ":1:5: expected a probability between 0 and 1, found '-0.1'"},
      {"n1 0.1x\n", ":1:4: expected a probability between 0 and 1, found '0.1x'"},
      {"n1 nan\n", ":1:4: expected a probability between 0 and 1, found 'nan'"},
      {"n1 0.1 3\n", ":1:8: expected 'NODE PROBABILITY', found 3 values"},
      {"# header\n  n1\n", ":2:5: expected 'NODE PROBABILITY', found 1 value"},
      {"n0 0\nn3 0.1\nn4 0.1\n3 0.2\n", ":4:1: node '3' is listed twice (first on line 2)"},
  };
  for (const auto& [content, expected] : cases) {
    TempFile file(content);
    EXPECT_EQ(error_text<ParseError>([&] { tofa::read_fault_file(file.path(), topology); }),
              file.path() + expected)
        << "content = " << content;
  }
}

TEST(FaultFile, ParseErrorCarriesItsParts) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  std::istringstream in("n2 0.1\nn2 0.3\n");
  try {
    tofa::parse_faults(in, "faults.txt", topology);
    FAIL() << "no exception";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.file(), "faults.txt");
    EXPECT_EQ(error.line(), 2);
    EXPECT_EQ(error.column(), 1);
    EXPECT_EQ(error.message(), "node 'n2' is listed twice (first on line 1)");
  }
}

TEST(FaultFile, UnreadableFileIsAnError) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  const std::string path = "/nonexistent-tofa-dir/faults.txt";
  EXPECT_EQ(error_text<Error>([&] { tofa::read_fault_file(path, topology); }),
            "cannot open fault file '" + path + "': No such file or directory");
}

// ----------------------------------------------------------------- Equation 1

// 4x4x4 torus, id = x + 4y + 16z. R(0, 21) goes x, y, then z:
//   (0,0,0)=0 -> (1,0,0)=1 -> (1,1,0)=5 -> (1,1,1)=21; intermediate nodes 1, 5.
// R(21, 0) also goes x first, so takes another path:
//   (1,1,1)=21 -> (0,1,1)=20 -> (0,0,1)=16 -> (0,0,0)=0; intermediate nodes 20, 16.
TEST(FaultCost, EquationOneChargesLinksTouchingAFaultyNode) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  std::vector<double> outage(64, 0.0);
  outage[5] = 0.01;
  const FaultCost cost;  // c = 1, penalty 100

  // Links 1->5 and 5->21 touch node 5: 101 each; 0->1 costs 1. 101 + 101 + 1 = 203.
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_distance(topology, outage, 0, 21, cost), 203.0);
  // The way back avoids node 5: 3 plain hops.
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_distance(topology, outage, 21, 0, cost), 3.0);
  // No outage information: plain hop count.
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_distance(topology, {}, 0, 21, cost), 3.0);
  EXPECT_EQ(tofa::fault_weighted_distance(topology, outage, 5, 5, cost), 0.0);

  // c = 2, penalty 10: faulty links cost 2 + 10 * 2 = 22. 22 + 22 + 2 = 46.
  FaultCost custom;
  custom.link_cost = 2;
  custom.penalty = 10;
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_distance(topology, outage, 0, 21, custom), 46.0);

  // A faulty endpoint counts too: only link 5->21 touches node 21.
  std::vector<double> destination_faulty(64, 0.0);
  destination_faulty[21] = 0.5;
  EXPECT_DOUBLE_EQ(tofa::fault_weighted_distance(topology, destination_faulty, 0, 21, cost),
                   1 + 1 + 101.0);
}

TEST(FaultCost, LinkCost) {
  std::vector<double> outage(64, 0.0);
  outage[21] = 0.3;
  const FaultCost cost;
  EXPECT_DOUBLE_EQ(tofa::link_cost(Link{5, 21, 2, +1}, outage, cost), 101.0);
  EXPECT_DOUBLE_EQ(tofa::link_cost(Link{21, 5, 2, -1}, outage, cost), 101.0);
  EXPECT_DOUBLE_EQ(tofa::link_cost(Link{0, 1, 0, +1}, outage, cost), 1.0);
  EXPECT_DOUBLE_EQ(tofa::link_cost(Link{0, 1, 0, +1}, {}, cost), 1.0);
}

TEST(FaultCost, OutageVectorMustMatchTheTopology) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  EXPECT_EQ(error_text<Error>([&] {
              tofa::fault_weighted_distance(topology, std::vector<double>(8, 0.0), 0, 21,
                                            FaultCost());
            }),
            "outage vector has 8 entries, expected 64 nodes");
}

// RouteFaults' per-segment counts against walks of every route, on rings of
// odd and even length (the halfway rule), a mesh, and adjacent failing nodes
// (their link counts once), by node and by coordinates; then both scorings
// against the walks' sums.
TEST(RouteFaults, CountsWhatARouteWalkCounts) {
  for (const char* spec : {"torus:7x5x2", "torus:8x4x4", "mesh:5x4x3", "torus:6x6"}) {
    const tofa::Topology topology = tofa::Topology::from_spec(spec);
    const int n = topology.node_count();
    std::mt19937 random(7);
    std::vector<double> outage(n, 0.0);
    for (int k = 0; k < n / 6; ++k) outage[random() % n] = 0.1 + 0.05 * (k % 5);
    outage[1] = outage[2] = 0.2;  // neighbours along dimension 0
    tofa::RouteFaults faults(topology, outage);
    ASSERT_TRUE(faults.any());
    std::vector<int> path;
    for (int from = 0; from < n; ++from)
      for (int to = 0; to < n; ++to) {
        topology.route_nodes(from, to, path);
        int walked = 0;
        for (std::size_t k = 0; k + 1 < path.size(); ++k)
          walked += outage[path[k]] > 0 || outage[path[k + 1]] > 0;
        ASSERT_EQ(faults.faulty_links(from, to), walked) << spec << " R(" << from << "," << to << ")";
        const std::vector<int> a = topology.coords(from), b = topology.coords(to);
        ASSERT_EQ(faults.faulty_links(a.data(), b.data()), walked)
            << spec << " R(" << from << "," << to << ") by coordinates";
      }
    // crossing_flags: every node against all the others at once, in two
    // calls (its caches are per call), against the counts above.
    std::vector<int> all;
    for (int node = 0; node < n; ++node) {
      const std::vector<int> c = topology.coords(node);
      all.insert(all.end(), c.begin(), c.end());
    }
    std::vector<std::uint16_t> flags(n);
    for (int from = 0; from < n; ++from)
      for (int repeat = 0; repeat < 2; ++repeat) {
        faults.crossing_flags(all.data() + from * topology.dimension_count(), all.data(), n,
                              flags.data());
        for (int to = 0; to < n; ++to)
          ASSERT_EQ(flags[to], faults.faulty_links(from, to) > 0 || faults.faulty_links(to, from) > 0)
              << spec << " flags of " << from << " and " << to;
      }

    const tofa::CommGraph graph = tofa::random_regular_graph(n / 2, 4, 1000, 3);
    std::vector<int> placement(graph.task_count());
    for (int& node : placement) node = static_cast<int>(random() % n);
    FaultCost cost;
    cost.link_cost = 2;
    double walked_cost = 0;
    std::vector<char> involved(n, 0);
    for (int node : placement) involved[node] = 1;
    for (int a = 0; a < graph.task_count(); ++a)
      for (std::int64_t k = graph.offsets()[a]; k < graph.offsets()[a + 1]; ++k) {
        const int b = graph.adjacency()[k];
        walked_cost += graph.bytes()[k] / 2 *
                       tofa::fault_weighted_distance(topology, outage, placement[a], placement[b], cost);
        topology.route_nodes(placement[a], placement[b], path);
        for (int node : path) involved[node] = 1;
      }
    double survive = 1;
    for (int node = 0; node < n; ++node)
      if (involved[node]) survive *= 1 - outage[node];
    EXPECT_NEAR(tofa::fault_weighted_hop_bytes(topology, graph, placement, outage, cost),
                walked_cost, 1e-9 * walked_cost)
        << spec;
    EXPECT_NEAR(tofa::expected_abort_probability(topology, graph, placement, outage), 1 - survive,
                1e-12)
        << spec;
  }
}

// RouteLinkCosts' per-segment sums against walks of every route (odd and
// even rings, a mesh, 2D), and Equation 1 with link costs, by pair and by
// placement, against the walks' sums.
TEST(RouteLinkCosts, SumsWhatARouteWalkSums) {
  for (const char* spec : {"torus:7x5x2", "torus:8x4x4", "mesh:5x4x3", "torus:6x6"}) {
    const tofa::Topology topology = tofa::Topology::from_spec(spec);
    const int n = topology.node_count();
    std::mt19937 random(11);
    auto extra = std::make_shared<std::vector<double>>(topology.link_slot_count(), 0.0);
    for (double& c : *extra) c = random() % 3 == 0 ? 0.25 * (random() % 9) : 0.0;
    tofa::RouteLinkCosts sums(topology, *extra);
    std::vector<int> ids;
    for (int from = 0; from < n; ++from)
      for (int to = 0; to < n; ++to) {
        topology.route_link_ids(from, to, ids);
        double walked = 0;
        for (int id : ids) walked += (*extra)[id];
        ASSERT_NEAR(sums.sum(from, to), walked, 1e-12) << spec << " R(" << from << "," << to << ")";
      }

    std::vector<double> outage(n, 0.0);
    outage[3] = 0.2;
    FaultCost cost;
    cost.link_cost = 2;
    cost.link_extra = extra;
    std::vector<int> path;
    for (int from = 0; from < n; from += 3)
      for (int to = 0; to < n; ++to) {
        topology.route_link_ids(from, to, ids);
        double walked = 0;
        for (int id : ids) {
          const tofa::Link link = topology.link_of(id);
          walked += tofa::link_cost(link, outage, cost) + cost.link_cost * (*extra)[id];
        }
        ASSERT_NEAR(tofa::fault_weighted_distance(topology, outage, from, to, cost), walked, 1e-9)
            << spec << " R(" << from << "," << to << ")";
      }
    const tofa::CommGraph graph = tofa::random_regular_graph(n / 2, 4, 1000, 3);
    std::vector<int> placement(graph.task_count());
    for (int& node : placement) node = static_cast<int>(random() % n);
    double walked_cost = 0;
    for (int a = 0; a < graph.task_count(); ++a)
      for (std::int64_t k = graph.offsets()[a]; k < graph.offsets()[a + 1]; ++k)
        walked_cost += graph.bytes()[k] / 2 *
                       tofa::fault_weighted_distance(topology, outage, placement[a],
                                                     placement[graph.adjacency()[k]], cost);
    EXPECT_NEAR(tofa::fault_weighted_hop_bytes(topology, graph, placement, outage, cost),
                walked_cost, 1e-9 * walked_cost)
        << spec;
  }
}

// ------------------------------------------------------- abort probability

// Same 4x4x4 torus. Tasks: 0 on node 0, 1 and 2 on node 21, 3 on node 2.
// Edges {0,1} 8 bytes, {1,2} 4 bytes (same node: no route), {2,3} 6 bytes;
// messages go both ways, so both routes of a pair count.
//   {0,1}: R(0, 21) passes 1 and 5; R(21, 0) = 21 -> (0,1,1)=20 -> (0,0,1)=16 -> 0
//          passes 20 and 16.
//   {2,3}: R(21, 2) = 21 -> (2,1,1)=22 -> (2,0,1)=18 -> 2 passes 22 and 18;
//          R(2, 21) passes 1 and 5.
// Involved nodes: {0, 21, 2} + {1, 5, 20, 16} + {22, 18}.
// Outages: p0 = 0.1, p5 = 0.2, p22 = 0.5, p63 = 0.9 (unused, ignored).
// 1 - (1 - 0.1)(1 - 0.2)(1 - 0.5) = 1 - 0.9 * 0.8 * 0.5 = 0.64.
TEST(AbortProbability, HandExample) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  const tofa::CommGraph graph =
      tofa::CommGraph::from_directed_edges(4, {{0, 1, 8, 1}, {1, 2, 4, 1}, {3, 2, 6, 1}});
  const std::vector<int> placement = {0, 21, 21, 2};
  std::vector<double> outage(64, 0.0);
  outage[0] = 0.1;
  outage[5] = 0.2;
  outage[22] = 0.5;
  outage[63] = 0.9;
  EXPECT_NEAR(tofa::expected_abort_probability(topology, graph, placement, outage), 0.64,
              1e-12);

  // A fault off every route (40): no risk; one on the return route R(21, 0)
  // only (20): that node's probability.
  std::vector<double> elsewhere(64, 0.0);
  elsewhere[40] = 0.5;
  EXPECT_EQ(tofa::expected_abort_probability(topology, graph, placement, elsewhere), 0.0);
  elsewhere[20] = 0.25;
  EXPECT_NEAR(tofa::expected_abort_probability(topology, graph, placement, elsewhere), 0.25,
              1e-12);

  EXPECT_EQ(tofa::expected_abort_probability(topology, graph, placement, {}), 0.0);
}

TEST(AbortProbability, ValidatesPlacement) {
  const tofa::Topology topology({4, 4, 4}, {true, true, true});
  const tofa::CommGraph graph = tofa_test::ring_graph(4);
  EXPECT_EQ(error_text<Error>([&] {
              tofa::expected_abort_probability(topology, graph, {0, 1, 2},
                                               std::vector<double>(64, 0.0));
            }),
            "placement has 3 entries, expected 4 tasks");
  EXPECT_EQ(error_text<Error>([&] {
              tofa::expected_abort_probability(topology, graph, {0, 1, 99, 3},
                                               std::vector<double>(64, 0.0));
            }),
            "task 2 is placed on node 99, outside 0..63");
}

}  // namespace
