// Placements computed for jobs: job id -> owner, graph, strategy, the node of
// every task and the placement's metrics. Bounded: the oldest go first.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <vector>

#include "tofa/metrics.hpp"

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
};

class PlacementStore {
 public:
  explicit PlacementStore(int retention = 1000) : retention_(retention) {}
  void set_retention(int retention);

  /// Inserts or replaces the job's record, then evicts the oldest records
  /// beyond the retention.
  void put(PlacementRecord record);
  const PlacementRecord* find(unsigned job) const;
  std::size_t size() const { return records_.size(); }
  const std::map<unsigned, PlacementRecord>& records() const { return records_; }

  /// Versioned text ("tofa-placements 1", one "placement ..." line per job).
  std::string to_text() const;
  /// Throws ParseError.
  static PlacementStore parse(const std::string& text, const std::string& source, int retention);

 private:
  void evict();
  std::map<unsigned, PlacementRecord> records_;
  int retention_;
  long long next_sequence_ = 1;
};

/// "a,b,c" of a node list.
std::string join_nodes(const std::vector<std::string>& nodes);
/// Metrics as "key=value" fields in a fixed order (protocol and state files).
std::vector<std::pair<std::string, std::string>> metrics_fields(const PlacementMetrics& metrics);

}  // namespace tofa::service
