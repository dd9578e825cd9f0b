// Uploaded communication graphs with their owners (in memory; the service
// writes the index and the uploaded texts under its state directory).
#pragma once

#include <sys/types.h>

#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "service/state_text.hpp"

namespace tofa::service {

struct GraphRecord {
  std::string id;        ///< "g<N>", N never reused
  uid_t uid = 0;         ///< owner
  std::string name;      ///< the file name the client gave (for messages only)
  int task_count = 0;
  long long bytes = 0;   ///< size of the uploaded text
  std::string sha256;    ///< hex digest of the uploaded text
  double uploaded = 0;   ///< epoch seconds
  double last_used = 0;  ///< epoch seconds of the upload or the last placement
  std::shared_ptr<const CommGraph> graph;  ///< null until first used after a restart
};

class GraphStore {
 public:
  /// A fresh id ("g1", "g2", ...).
  std::string next_id() { return "g" + std::to_string(next_++); }

  void insert(GraphRecord record);
  bool erase(const std::string& id);
  void touch(const std::string& id, double now);
  /// Sets the graph of a record restored without it.
  void set_graph(const std::string& id, std::shared_ptr<const CommGraph> graph);

  /// The record when it exists and `uid` may use it (owner or admin); else
  /// Error "unknown graph id ID" (the same text whether it exists or not).
  const GraphRecord& usable(const std::string& id, uid_t uid, bool admin) const;
  const GraphRecord* find(const std::string& id) const;
  /// A graph of `uid` with this digest, if any (uploads are deduplicated).
  const GraphRecord* find_by_digest(uid_t uid, const std::string& sha256) const;

  int count_of(uid_t uid) const;
  /// The least recently used graph of `uid` that is not in `keep` and was
  /// last used before `used_before`.
  std::optional<std::string> least_recently_used(
      uid_t uid, const std::set<std::string>& keep = {},
      double used_before = std::numeric_limits<double>::infinity()) const;
  /// Graphs `uid` may see (all for an admin), in id order.
  std::vector<const GraphRecord*> visible(uid_t uid, bool admin) const;
  std::size_t size() const { return records_.size(); }

  /// Versioned index ("# tofa-state graphs 2", "next N", one "graph ..."
  /// line per record); the graphs themselves are not included.
  std::string index_text() const;
  /// Parses an index of index_text's format or the previous one
  /// ("tofa-graphs 1"); records come back without `graph`. A bad record is
  /// skipped and noted in `notes` when given; `next` stays above every id read. Throws ParseError
  /// for a bad first line, NewerStateFile for a newer version.
  static std::vector<GraphRecord> parse_index(const std::string& text, const std::string& source,
                                              long long& next, LoadNotes* notes = nullptr);
  void set_next(long long next) { next_ = next; }

 private:
  std::map<std::string, GraphRecord> records_;
  long long next_ = 1;
};

/// Numeric order of ids "g2" < "g10".
bool graph_id_less(const std::string& a, const std::string& b);

}  // namespace tofa::service
