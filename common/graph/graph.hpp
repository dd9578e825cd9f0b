// Communication graphs: who talks to whom, how much.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace tofa {

/// One directed or undirected communication record between two tasks.
struct CommEdge {
  int from = 0;
  int to = 0;
  double bytes = 0;
  double messages = 0;
};

/// Whether a graph remembers who sends the bytes of a pair (a recorded
/// matrix does: a ring allreduce sends one way only) or takes them as half
/// each way (generators, coarsened graphs).
enum class Directions { Halved, Kept };

/// Symmetric weighted graph of an application's tasks in CSR form.
/// The weight of {u,v} is G(u,v) + G(v,u) of the directed input; self loops
/// (the diagonal of a matrix) are dropped. Adjacency lists are sorted.
/// Largest sum of all byte (or message) counts of a graph. Far above any real
/// traffic, low enough that every metric derived from it (hop-bytes times
/// hops, squared deviations) stays finite.
constexpr double kMaxTotalAmount = 1e150;

class CommGraph {
 public:
  CommGraph() = default;

  /// Builds the symmetrized graph from directed records (duplicates add up).
  /// Throws tofa::Error when an endpoint is outside [0, task_count) or the
  /// bytes or messages add up to more than kMaxTotalAmount.
  /// Directions::Kept also keeps each record's sender (sent()).
  static CommGraph from_directed_edges(int task_count, const std::vector<CommEdge>& edges,
                                       Directions directions = Directions::Halved);

  int task_count() const { return task_count_; }
  /// Number of undirected edges.
  std::size_t edge_count() const { return adjacency_.size() / 2; }

  /// Neighbours of task u are adjacency()[offsets()[u] .. offsets()[u+1]).
  const std::vector<std::int64_t>& offsets() const { return offsets_; }
  const std::vector<int>& adjacency() const { return adjacency_; }
  /// Bytes and message counts, one entry per adjacency entry.
  const std::vector<double>& bytes() const { return bytes_; }
  const std::vector<double>& messages() const { return messages_; }
  /// Of bytes()[k] in row u, what u sends to adjacency()[k] (the rest comes
  /// back): half without kept directions.
  double sent(std::int64_t k) const { return sent_.empty() ? bytes_[k] / 2 : sent_[k]; }
  bool has_directions() const { return !sent_.empty(); }
  /// Bytes its arrays hold.
  long long memory_bytes() const;

  /// Undirected edges with from < to, sorted by (from, to).
  std::vector<CommEdge> undirected_edges() const;
  /// Sum of bytes over undirected edges.
  double total_bytes() const;
  /// Total bytes each task exchanges (weighted degree).
  std::vector<double> task_volumes() const;

 private:
  int task_count_ = 0;
  std::vector<std::int64_t> offsets_{0};
  std::vector<int> adjacency_;
  std::vector<double> bytes_;
  std::vector<double> messages_;
  std::vector<double> sent_;  // empty: half each way
};

enum class GraphFormat {
  Auto,          ///< decided from the first data line (see read_graph)
  DenseMatrix,   ///< "N" then N rows of N non-negative numbers
  EdgeList,      ///< "i j bytes [msgs]" per line, 0-based task ids
  MatrixMarket,  ///< "%%MatrixMarket matrix coordinate ..." with 1-based ids
};

/// What a graph parsed from untrusted text may take: a larger task count, or
/// more communication records than `max_memory` bytes hold once built (each
/// record takes kBytesPerRecord in the CSR arrays), is refused at the line
/// that passes the limit, before the memory is taken. The sources name where
/// each limit is set, for messages.
struct GraphLimits {
  long long max_tasks = 1LL << 24;
  std::string tasks_source;
  long long max_memory = 0;  ///< 0: unlimited
  std::string memory_source;
};
/// Bytes a record i-j takes in a CommGraph (both directions' adjacency,
/// bytes, messages and bytes sent): the graph holds at most this times its
/// records, plus its offsets.
constexpr long long kBytesPerRecord = 2 * (sizeof(int) + 3 * sizeof(double));

/// Parses a graph from text. `source_name` is used in error messages.
/// Auto-detection: a "%%MatrixMarket" banner selects MatrixMarket; otherwise a
/// first data line with one token is a dense matrix, with 3 or 4 tokens an edge
/// list. '#' starts a comment (dense and edge-list formats). Throws ParseError.
/// `limits` as GraphLimits says.
CommGraph parse_graph(std::istream& in, const std::string& source_name,
                      GraphFormat format = GraphFormat::Auto, const GraphLimits& limits = {});

/// Reads a graph file. For a dense byte matrix "X.mat" a sibling message-count
/// matrix "X.msgs.mat" is read too when it exists (it must have the same N).
/// Throws ParseError (bad content) or Error (unreadable file).
CommGraph read_graph(const std::string& path, GraphFormat format = GraphFormat::Auto);

/// "dir/comm.mat" -> "dir/comm.msgs.mat"; "comm" -> "comm.msgs".
std::string message_matrix_path(const std::string& byte_matrix_path);

/// Writes the dense matrix format (bytes sent from row to column, half the
/// pair's each way without kept directions); used by tools and tests.
void write_dense_matrix(std::ostream& out, const CommGraph& graph);

/// Writes MatrixMarket coordinate (general, real; bytes), an entry per
/// direction that sends (as the dense matrix): the sparse form for graphs too
/// large for a dense matrix.
void write_matrix_market(std::ostream& out, const CommGraph& graph);

/// Throws Error unless `placement` gives every task of `graph` a node id in
/// 0..node_count-1.
void check_placement_shape(const CommGraph& graph, int node_count,
                           const std::vector<int>& placement);

}  // namespace tofa
