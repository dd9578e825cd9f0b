// Per-node heartbeat histories, the outage probability derived from them,
// and administrator overrides (set-outage / clear-outage).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "faults/faults.hpp"
#include "service/state_text.hpp"
#include "topology/topology.hpp"

namespace tofa::service {

struct NodeRecord {
  HeartbeatHistory history;
  double last_heartbeat = 0;  ///< epoch seconds of the last heartbeat sent (0 = never)
  double last_answer = 0;     ///< epoch seconds of the last answer (0 = never)
  bool last_answered = false;
  std::optional<double> override_probability;  ///< wins over the model while set
  /// Not saved: false after every start of the service. Until a node first
  /// answers, its misses are not counted: at cluster boot the service starts
  /// before the slurmd responders, and counting those misses would mark every
  /// node faulty for a whole window (100 x 10 s by default). A node that never
  /// answers is one Slurm itself marks down, so it is no candidate anyway.
  bool answered_since_start = false;
};

class NodeHealth {
 public:
  void record(const std::string& node, bool answered, double now, const OutageModel& model);
  /// Throws Error unless 0 <= p <= 1.
  void set_override(const std::string& node, double probability);
  /// False when the node had no override.
  bool clear_override(const std::string& node);

  /// Override if set, else the model's estimate; 0 for a node never seen.
  double probability(const std::string& node, const OutageModel& model) const;
  /// One probability per topology node, by name. Built once, then kept
  /// current node by node as heartbeats and overrides arrive: slurmctld's
  /// scheduling pass asks for it per TOFA job, and rebuilding it after each
  /// heartbeat round cost 4.7 ms there on 158,976 nodes (lookups by name).
  /// Valid until the next call of any member; the caller serialises calls.
  const std::vector<double>& outage_vector(const Topology& topology,
                                           const OutageModel& model) const;
  /// The same vector, to read after the caller's lock is released: later
  /// changes go to a copy while a snapshot is held (no copy per job).
  std::shared_ptr<const std::vector<double>> outage_snapshot(const Topology& topology,
                                                             const OutageModel& model) const;

  const NodeRecord* find(const std::string& node) const;
  const std::map<std::string, NodeRecord>& records() const { return records_; }

  /// Versioned text ("# tofa-state nodes 2", one "node ..." line per node).
  std::string to_text() const;
  /// Reads to_text's format or the previous one ("tofa-nodes 1"); a bad
  /// record is skipped and noted in `notes` when given. Throws ParseError for a bad first line,
  /// NewerStateFile for a newer version.
  static NodeHealth parse(const std::string& text, const std::string& source,
                          LoadNotes* notes = nullptr);

 private:
  /// The node's entry of a built outage vector, after its record changed.
  void refresh_cached(const std::string& node, const NodeRecord& record);

  std::map<std::string, NodeRecord> records_;
  struct OutageCache {
    bool valid = false;
    const Topology* topology = nullptr;
    OutageModel model;
    std::shared_ptr<std::vector<double>> outage;
  };
  mutable OutageCache cache_;
};

}  // namespace tofa::service
