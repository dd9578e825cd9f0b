// The heartbeat phase: the service (started by slurmctld_tofa.so) heartbeats
// the synthetic cluster round after round; this samples its outage estimates
// against the failure model's truth, the round times and the CPU it costs.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/failure_model.hpp"
#include "harness/processes.hpp"

namespace tofa::harness {

struct HeartbeatPhaseOptions {
  long rounds = 1000;          ///< rounds to observe after every node is heartbeated
  int samples = 20;            ///< estimate snapshots over the rounds
  double freeze_round = 50;
  double limit_seconds = 600;  ///< stop observing after this long anyway
};

/// Outage estimates per node, read from the service (tofa_service_node_outage).
std::vector<double> service_estimates(const std::vector<std::string>& names);

/// Runs the phase; returns its JSON section. `truth(node, round)` is the
/// probability the model gives node in that round (frozen nodes: 1 after
/// freezing). Shows progress on a terminal.
nlohmann::ordered_json run_heartbeat_phase(const HeartbeatPhaseOptions& options,
                                           const std::vector<std::string>& names,
                                           const FailureModel& model, const Munged& munged,
                                           std::vector<double>* final_estimates);

}  // namespace tofa::harness
