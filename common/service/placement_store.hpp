// Placements computed for jobs: job id -> owner, graph, strategy, the node of
// every task and the placement's metrics. Bounded: the oldest go first.
#pragma once

#include <sys/types.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "metrics/metrics.hpp"
#include "service/state_text.hpp"

namespace tofa::service {

struct PlacementRecord {
  unsigned job = 0;
  uid_t uid = 0;
  std::string graph_id;
  std::string strategy;
  std::vector<std::string> nodes;  ///< nodes[i] = node of task i
  PlacementMetrics metrics;
  double time = 0;  ///< epoch seconds
  long long sequence = 0;  ///< insertion order, for eviction
  /// The scheduler's node choice, its tasks still being ordered by the job's
  /// strategy (ServiceState::map_later). Not saved: after a restart the
  /// node choice's own order stands.
  bool pending = false;
};

class PlacementStore {
 public:
  explicit PlacementStore(int retention = 1000) : retention_(retention) {}
  void set_retention(int retention);

  /// Inserts or replaces the job's record (metrics clamped by
  /// clamp_metrics), then evicts the oldest records beyond the retention.
  void put(PlacementRecord record);
  const PlacementRecord* find(unsigned job) const;
  /// Changes the job's record in place, keeping its sequence (put gives a
  /// new one); false when there is none.
  bool update(unsigned job, const std::function<void(PlacementRecord&)>& change);
  void erase(unsigned job);
  std::size_t size() const { return records_.size(); }
  const std::map<unsigned, PlacementRecord>& records() const { return records_; }

  /// Versioned text ("# tofa-state placements 2", one "placement ..." line
  /// per job).
  std::string to_text() const;
  /// Each record's line (formatted when the record changed), with its
  /// sequence: a copy of pointers, for writing the file outside the state
  /// lock (a few thousand tasks a record make megabytes of text).
  using Lines = std::vector<std::pair<long long, std::shared_ptr<const std::string>>>;
  Lines lines() const;
  /// to_text's text of lines().
  static std::string text_of(Lines lines);
  /// Reads to_text's format or the previous one ("tofa-placements 1"). A bad
  /// record is skipped, non-finite metrics are clamped, both noted in
  /// `notes` when given.
  /// Throws ParseError for a bad first line, NewerStateFile for a newer
  /// version.
  static PlacementStore parse(const std::string& text, const std::string& source, int retention,
                              LoadNotes* notes = nullptr);

 private:
  void evict();
  std::map<unsigned, PlacementRecord> records_;
  std::map<unsigned, std::shared_ptr<const std::string>> lines_;  ///< records_' lines
  int retention_;
  long long next_sequence_ = 1;
};

/// "a,b,c" of a node list.
std::string join_nodes(const std::vector<std::string>& nodes);
/// "a,b,c" -> {a, b, c} ("" -> {}).
std::vector<std::string> split_nodes(const std::string& text);
/// Replaces non-finite metrics by clamp_to_finite (a placement is never
/// recorded with inf or nan); returns "NAME=VALUE is not finite, kept as X"
/// for each replaced one.
std::vector<std::string> clamp_metrics(PlacementMetrics& metrics);
/// Metrics as "key=value" fields in a fixed order (protocol and state files).
std::vector<std::pair<std::string, std::string>> metrics_fields(const PlacementMetrics& metrics);

}  // namespace tofa::service
