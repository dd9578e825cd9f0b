// Fair-share link times and the congestion descent auto runs when it sees
// the other jobs' traffic.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "graph/graph.hpp"
#include "map/mapper.hpp"
#include "map/portfolio/congestion_descent.hpp"
#include "metrics/interference.hpp"
#include "metrics/metrics.hpp"
#include "topology/topology.hpp"

namespace {

// A ring of 8 nodes and a job of two tasks that send 1000 bytes (500 each way).
struct RingJob {
  tofa::Topology ring = tofa::Topology::from_spec("torus:8");
  tofa::CommGraph graph = tofa::CommGraph::from_directed_edges(2, {{0, 1, 1000, 1}});
  tofa::MappingRequest request;
  RingJob() {
    request.graph = &graph;
    request.topology = &ring;
  }
  int link(int from, int to) const { return ring.link_id(ring.route(from, to).links.at(0)); }
  // Another job's bytes on every link of the routes between `a` and `b`.
  void others_between(int a, int b, double bytes) {
    const tofa::CommGraph other = tofa::CommGraph::from_directed_edges(2, {{0, 1, 2 * bytes, 1}});
    tofa::add_interference(request.fault_cost, ring, tofa::link_loads(other, ring, {a, b}), 1.0);
  }
};

TEST(CongestionDescent, OthersDelayAFlowByAtMostItsOwnBytes) {
  RingJob job;
  job.others_between(0, 1, 300);
  const tofa::SharedLinkTimes times(job.request);
  ASSERT_FALSE(times.empty());
  EXPECT_DOUBLE_EQ(times.time(job.link(0, 1), 100), 200);  // min(100, 300) more
  EXPECT_DOUBLE_EQ(times.time(job.link(0, 1), 500), 800);  // all 300 of theirs
  EXPECT_DOUBLE_EQ(times.time(job.link(4, 5), 500), 500);  // a link they do not use
  EXPECT_DOUBLE_EQ(times.footprint(job.request, {0, 1}).busiest, 800);
  EXPECT_DOUBLE_EQ(times.footprint(job.request, {4, 5}).busiest, 500);
}

// Another job's 600 bytes go 1 -> 0 only. On split-duplex links the job's
// 500 bytes 0 -> 1 do not meet them; on shared links both directions of
// the job (1000 bytes) meet all 600.
TEST(CongestionDescent, SharedLinksAddBothDirections) {
  for (bool shared : {false, true}) {
    RingJob job;
    job.request.fault_cost.shared_links = shared;
    std::vector<double> others(job.ring.link_slot_count(), 0.0);
    others[job.link(1, 0)] = 600;
    tofa::add_interference(job.request.fault_cost, job.ring, others, 1.0);
    const tofa::SharedLinkTimes times(job.request);
    EXPECT_EQ(times.both_ways(), shared);
    EXPECT_DOUBLE_EQ(times.time(job.link(0, 1), 500), shared ? 1000 : 500);
    // Shared: each direction's 500 and its acknowledgements' 5% come back.
    EXPECT_DOUBLE_EQ(times.footprint(job.request, {0, 1}).busiest, shared ? 1650 : 1000);
    const auto own = times.own_loads(job.request, {0, 1});
    ASSERT_EQ(own.size(), 2u);
    EXPECT_DOUBLE_EQ(own[0].usage, shared ? 1050 : 500);
  }
}

// TCP on shared links: a flow's share of a link falls with its hops. Task 0
// sends 1000 bytes to task 1 four hops away (nodes 0 -> 4), task 2 1000
// bytes to task 3 one hop away. Apart, each takes its bytes and their
// acknowledgements; on a link of the long route the short flow takes four
// times the long one's share, so the long flow takes 5 times as long.
TEST(CongestionDescent, OnTcpLinksALongFlowLosesToAShortOne) {
  RingJob job;
  job.graph = tofa::CommGraph::from_directed_edges(4, {{0, 1, 1000, 1}, {2, 3, 1000, 1}},
                                                   tofa::Directions::Kept);
  job.request.fault_cost.shared_links = true;
  job.others_between(6, 7, 1);
  const tofa::SharedLinkTimes times(job.request);
  EXPECT_DOUBLE_EQ(times.footprint(job.request, {0, 4, 5, 6}).busiest, 1050);
  EXPECT_DOUBLE_EQ(times.footprint(job.request, {0, 4, 1, 2}).busiest, 4 * (1050.0 / 4 + 1050));
  const auto own = times.own_loads(job.request, {0, 4, 1, 2});
  const auto on = [&](int from, int to) {
    for (const auto& use : own)
      if (use.link == job.link(from, to)) return use;
    return tofa::LinkUse{};
  };
  EXPECT_DOUBLE_EQ(on(1, 2).flows, 2 * (16 + 1));  // squared hops of the flows and their acknowledgements
  EXPECT_EQ(on(1, 2).longest, 4);
  EXPECT_EQ(on(2, 1).longest, 4);  // both directions of a shared link
}

// On split-duplex links the job's bytes on links the others use are the
// bytes that slow them down; on shared links auto does not count them.
TEST(CongestionDescent, BytesOnTheOthersLinksOnSplitDuplexLinks) {
  for (bool shared : {false, true}) {
    RingJob job;
    job.request.fault_cost.shared_links = shared;
    job.others_between(0, 1, 300);
    const tofa::SharedLinkTimes times(job.request);
    EXPECT_EQ(times.protects_others(), !shared);
    EXPECT_DOUBLE_EQ(times.footprint(job.request, {0, 1}).bytes_on_others_links, shared ? 0 : 1000);
    EXPECT_DOUBLE_EQ(times.footprint(job.request, {4, 5}).bytes_on_others_links, 0);
  }
}

// On shared links auto counts the job's use of the links of the running
// jobs' slowest flows (FaultCost::link_criticality), both ways.
TEST(CongestionDescent, OnSharedLinksBytesOnTheCriticalLinks) {
  RingJob job;
  job.request.fault_cost.shared_links = true;
  job.others_between(0, 2, 300);
  auto critical = std::make_shared<std::vector<double>>(job.ring.link_slot_count(), 0);
  (*critical)[job.link(1, 2)] = 1;
  job.request.fault_cost.link_criticality = critical;
  const tofa::SharedLinkTimes times(job.request);
  EXPECT_TRUE(times.protects_others());
  EXPECT_TRUE(times.protects(job.link(1, 2)));
  EXPECT_FALSE(times.protects(job.link(0, 1)));  // the others use it; no slowest flow does
  EXPECT_DOUBLE_EQ(times.footprint(job.request, {0, 1}).bytes_on_others_links, 0);
  // 1 -> 2 carries the job's 500 bytes, 2 -> 1 their acknowledgements' 25, and back.
  EXPECT_DOUBLE_EQ(times.footprint(job.request, {1, 2}).bytes_on_others_links, 1050);
}

// Moving the pair next to each other onto the other job's link would cut
// its own time to a third: on split-duplex links the descent keeps its
// start, which slows no other job; on shared links it moves.
TEST(CongestionDescent, OnSplitDuplexLinksNoMoveAddsBytesOnTheOthersLinks) {
  for (bool shared : {false, true}) {
    RingJob job;
    job.request.fault_cost.shared_links = shared;
    job.others_between(3, 4, 1);
    job.request.candidate_nodes = {0, 3, 4};
    const tofa::Placement placed = tofa::congestion_descent(job.request, {0, 3}, 0);
    EXPECT_EQ(job.ring.hop_distance(placed[0], placed[1]), shared ? 1 : 3) << shared;
  }
}

TEST(CongestionDescent, ALinkNextToAFailingNodeCostsThePenaltyMore) {
  RingJob job;
  job.others_between(0, 1, 300);
  job.request.outage.assign(8, 0.0);
  job.request.outage[5] = 0.1;
  job.request.fault_cost.penalty = 9;
  const tofa::SharedLinkTimes times(job.request);
  EXPECT_DOUBLE_EQ(times.time(job.link(4, 5), 500), 5000);
  EXPECT_DOUBLE_EQ(times.time(job.link(5, 6), 500), 5000);
  EXPECT_DOUBLE_EQ(times.time(job.link(2, 3), 500), 500);
}

TEST(CongestionDescent, BlindRequestsKeepTheirStart) {
  RingJob job;
  job.request.candidate_nodes = {0, 1, 4, 5};
  EXPECT_TRUE(tofa::SharedLinkTimes(job.request).empty());
  EXPECT_EQ(tofa::congestion_descent(job.request, {0, 1}, 0), (tofa::Placement{0, 1}));
}

// From the nodes whose links the other job loads, the descent moves the
// pair next to each other on quiet links.
TEST(CongestionDescent, MovesOffTheLinksOtherJobsLoad) {
  RingJob job;
  job.others_between(0, 1, 5000);
  job.request.candidate_nodes = {0, 1, 4, 5};
  const tofa::Placement moved = tofa::congestion_descent(job.request, {0, 1}, 0);
  tofa::check_placement(job.request, moved);
  const tofa::SharedLinkTimes times(job.request);
  EXPECT_DOUBLE_EQ(times.footprint(job.request, moved).busiest, 500) << moved[0] << "," << moved[1];
}

// With every candidate taken, only swaps are left: four tasks in a ring on
// four nodes, started crossed (0-2-1-3), end in ring order on the quiet
// links, the other job's bytes on the one link that a ring of four on
// nodes 0..3 of the 8-ring cannot avoid.
TEST(CongestionDescent, SwapsTasksWhenNoSlotIsFree) {
  RingJob job;
  const tofa::CommGraph ring4 = tofa::CommGraph::from_directed_edges(
      4, {{0, 1, 1000, 1}, {1, 2, 1000, 1}, {2, 3, 1000, 1}, {3, 0, 1000, 1}});
  job.request.graph = &ring4;
  job.request.candidate_nodes = {0, 1, 2, 3};
  job.others_between(1, 2, 100);
  const tofa::Placement start{0, 2, 1, 3};
  const tofa::SharedLinkTimes times(job.request);
  const tofa::Placement swapped = tofa::congestion_descent(job.request, start, 0);
  tofa::check_placement(job.request, swapped);
  EXPECT_LT(times.footprint(job.request, swapped).busiest, times.footprint(job.request, start).busiest);
  EXPECT_LT(tofa::evaluate_placement(ring4, job.ring, swapped, {}).hop_bytes,
            tofa::evaluate_placement(ring4, job.ring, start, {}).hop_bytes);
}

}  // namespace
