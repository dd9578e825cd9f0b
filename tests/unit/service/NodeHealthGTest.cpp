// NodeHealth: misses before a node's first answer (since the service started)
// are not counted; after that every miss is.
#include <gtest/gtest.h>

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

}  // namespace
