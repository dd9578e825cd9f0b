// NodeHealth: misses before a node's first answer (since the service started)
// are not counted; after that every miss is.
#include <gtest/gtest.h>

#include <random>

#include "service/node_health.hpp"

namespace {

using tofa::OutageModel;
using tofa::service::NodeHealth;

TEST(NodeHealth, MissesBeforeTheFirstAnswerAreNotCounted) {
  NodeHealth health;
  const OutageModel model;  // window:100
  health.record("n1", false, 1, model);  // the responder is not up yet
  health.record("n1", false, 2, model);
  EXPECT_EQ(health.probability("n1", model), 0.0);
  EXPECT_EQ(health.find("n1")->history.missed_total(), 0u);
  EXPECT_EQ(health.find("n1")->last_heartbeat, 2.0);  // still shown as polled

  health.record("n1", true, 3, model);
  health.record("n1", false, 4, model);  // 1 of 2 counted heartbeats missed
  EXPECT_EQ(health.probability("n1", model), 0.5);
}

TEST(NodeHealth, AfterARestartTheHistoryStaysButWaitsForAnAnswerAgain) {
  NodeHealth health;
  const OutageModel model;
  health.record("n1", true, 1, model);
  health.record("n1", false, 2, model);
  tofa::service::LoadNotes notes;
  NodeHealth restarted = NodeHealth::parse(health.to_text(), "nodes.state", &notes);
  EXPECT_TRUE(notes.empty());
  EXPECT_EQ(restarted.probability("n1", model), 0.5);
  restarted.record("n1", false, 3, model);  // not counted until n1 answers again
  EXPECT_EQ(restarted.probability("n1", model), 0.5);
  restarted.record("n1", true, 4, model);
  restarted.record("n1", false, 5, model);
  EXPECT_EQ(restarted.find("n1")->history.missed_total(), 2u);
}

TEST(NodeHealth, TheOutageVectorFollowsEveryHeartbeatAndOverride) {
  // outage_vector is kept between calls: each change must show in the next.
  NodeHealth health;
  const tofa::Topology ring = tofa::Topology::from_spec("torus:4");
  const OutageModel window = OutageModel::parse("window:4");
  const std::string n1 = ring.node_name(1);
  EXPECT_EQ(health.outage_vector(ring, window), std::vector<double>(4, 0.0));
  health.record(n1, true, 1, window);
  health.record(n1, false, 2, window);
  EXPECT_EQ(health.outage_vector(ring, window)[1], 0.5);
  health.record(n1, false, 3, window);
  EXPECT_NEAR(health.outage_vector(ring, window)[1], 2.0 / 3, 1e-12);
  // Another model reads the EWMA kept beside the window (alpha 0.1 of the
  // model the heartbeats were recorded with: 0.1, then 0.19).
  EXPECT_NEAR(health.outage_vector(ring, OutageModel::parse("ewma:0.5"))[1], 0.19, 1e-12);
  EXPECT_NEAR(health.outage_vector(ring, window)[1], 2.0 / 3, 1e-12);
  health.set_override(ring.node_name(2), 0.25);
  EXPECT_EQ(health.outage_vector(ring, window)[2], 0.25);
  EXPECT_TRUE(health.clear_override(ring.node_name(2)));
  EXPECT_EQ(health.outage_vector(ring, window)[2], 0.0);
}

// Built once, then kept current node by node: after any mix of heartbeats
// and overrides it equals the probabilities read one by one.
TEST(NodeHealth, TheKeptOutageVectorEqualsOneBuiltFromScratch) {
  NodeHealth health;
  const tofa::Topology torus = tofa::Topology::from_spec("torus:4x4");
  const OutageModel window = OutageModel::parse("window:8");
  health.outage_vector(torus, window);
  std::mt19937 random(7);
  for (int step = 0; step < 2000; ++step) {
    const std::string node = random() % 20 == 0 ? "not-in-the-topology" : torus.node_name(random() % 16);
    switch (random() % 5) {
      case 0: health.set_override(node, static_cast<double>(random() % 5) / 4); break;
      case 1: health.clear_override(node); break;
      default: health.record(node, random() % 3 != 0, step, window);
    }
    if (step % 37 != 0) continue;
    const std::vector<double> kept = health.outage_vector(torus, window);
    for (int id = 0; id < torus.node_count(); ++id)
      ASSERT_EQ(kept[id], health.probability(torus.node_name(id), window))
          << "step " << step << ", node " << torus.node_name(id);
  }
}

}  // namespace
