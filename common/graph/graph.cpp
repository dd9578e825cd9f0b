// CommGraph: symmetric CSR built from directed communication records.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "graph/graph.hpp"

namespace tofa {

namespace {

struct Neighbour {
  int task;
  double bytes;
  double messages;
  double sent;
};

void check_edge(int task_count, std::size_t index, const CommEdge& e) {
  auto inside = [&](int id) { return id >= 0 && id < task_count; };
  if (!inside(e.from) || !inside(e.to)) {
    throw Error("communication edge " + std::to_string(index) + " (" + std::to_string(e.from) +
                " -> " + std::to_string(e.to) + ") has a task id outside 0.." +
                std::to_string(task_count - 1));
  }
  if (!std::isfinite(e.bytes) || e.bytes < 0 || !std::isfinite(e.messages) || e.messages < 0) {
    throw Error("communication edge " + std::to_string(index) + " (" + std::to_string(e.from) +
                " -> " + std::to_string(e.to) +
                ") has a negative or non-finite byte or message count");
  }
}

void write_number(std::ostream& out, double value) {
  char text[32];
  auto result = std::to_chars(text, text + sizeof text, value);
  out.write(text, result.ptr - text);
}

}  // namespace

long long CommGraph::memory_bytes() const {
  return static_cast<long long>(offsets_.capacity() * sizeof(std::int64_t) +
                                adjacency_.capacity() * sizeof(int) +
                                (bytes_.capacity() + messages_.capacity() + sent_.capacity()) *
                                    sizeof(double));
}

// long: the CSR build in one pass (count, sort, merge both directions) over shared arrays.
CommGraph CommGraph::from_directed_edges(int task_count, const std::vector<CommEdge>& edges,
                                         Directions directions) {
  if (task_count < 0) {
    throw Error("task count must not be negative, got " + std::to_string(task_count));
  }
  double total_bytes = 0;
  double total_messages = 0;
  for (std::size_t i = 0; i < edges.size(); ++i) {
    check_edge(task_count, i, edges[i]);
    total_bytes += edges[i].bytes;
    total_messages += edges[i].messages;
    if (total_bytes > kMaxTotalAmount || total_messages > kMaxTotalAmount)
      throw Error("communication edges 0.." + std::to_string(i) +
                  " add up to more than 1e150 bytes or messages");
  }

  CommGraph graph;
  graph.task_count_ = task_count;

  // Every record u->v lands in the lists of both u and v; duplicates are
  // merged per row below.
  std::vector<std::int64_t>& offsets = graph.offsets_;
  offsets.assign(static_cast<std::size_t>(task_count) + 1, 0);
  for (const CommEdge& e : edges) {
    if (e.from == e.to) continue;
    ++offsets[e.from + 1];
    ++offsets[e.to + 1];
  }
  for (int u = 0; u < task_count; ++u) offsets[u + 1] += offsets[u];

  const auto slots = static_cast<std::size_t>(offsets[task_count]);
  graph.adjacency_.resize(slots);
  graph.bytes_.resize(slots);
  graph.messages_.resize(slots);
  const bool kept = directions == Directions::Kept;
  if (kept) graph.sent_.resize(slots);
  std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
  auto place = [&](int u, int v, const CommEdge& e, bool sender) {
    const std::int64_t at = next[u]++;
    graph.adjacency_[at] = v;
    graph.bytes_[at] = e.bytes;
    graph.messages_[at] = e.messages;
    if (kept) graph.sent_[at] = sender ? e.bytes : 0;
  };
  for (const CommEdge& e : edges) {
    if (e.from == e.to) continue;
    place(e.from, e.to, e, true);
    place(e.to, e.from, e, false);
  }

  // Sort each row and merge equal neighbours, compacting in place. Rows are
  // sorted stably so that row u and row v add the same records in the same
  // order and w(u,v) == w(v,u) exactly.
  std::vector<Neighbour> row;
  std::int64_t write = 0;
  for (int u = 0; u < task_count; ++u) {
    const std::int64_t begin = offsets[u];
    const std::int64_t end = offsets[u + 1];
    row.clear();
    for (std::int64_t k = begin; k < end; ++k) {
      row.push_back({graph.adjacency_[k], graph.bytes_[k], graph.messages_[k],
                     kept ? graph.sent_[k] : 0});
    }
    const bool sorted = std::is_sorted(row.begin(), row.end(), [](const auto& a, const auto& b) {
      return a.task < b.task;
    });
    if (!sorted) {
      std::stable_sort(row.begin(), row.end(),
                       [](const auto& a, const auto& b) { return a.task < b.task; });
    }
    offsets[u] = write;
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].task == row[k - 1].task) {
        graph.bytes_[write - 1] += row[k].bytes;
        graph.messages_[write - 1] += row[k].messages;
        if (kept) graph.sent_[write - 1] += row[k].sent;
        continue;
      }
      graph.adjacency_[write] = row[k].task;
      graph.bytes_[write] = row[k].bytes;
      graph.messages_[write] = row[k].messages;
      if (kept) graph.sent_[write] = row[k].sent;
      ++write;
    }
  }
  offsets[task_count] = write;
  for (auto* values : {&graph.bytes_, &graph.messages_, &graph.sent_}) {
    if (values->empty()) continue;
    values->resize(static_cast<std::size_t>(write));
    values->shrink_to_fit();
  }
  graph.adjacency_.resize(static_cast<std::size_t>(write));
  graph.adjacency_.shrink_to_fit();
  return graph;
}

std::vector<CommEdge> CommGraph::undirected_edges() const {
  std::vector<CommEdge> result;
  result.reserve(edge_count());
  for (int u = 0; u < task_count_; ++u) {
    for (std::int64_t k = offsets_[u]; k < offsets_[u + 1]; ++k) {
      if (adjacency_[k] > u) result.push_back({u, adjacency_[k], bytes_[k], messages_[k]});
    }
  }
  return result;
}

double CommGraph::total_bytes() const {
  double total = 0;
  for (int u = 0; u < task_count_; ++u) {
    for (std::int64_t k = offsets_[u]; k < offsets_[u + 1]; ++k) {
      if (adjacency_[k] > u) total += bytes_[k];
    }
  }
  return total;
}

std::vector<double> CommGraph::task_volumes() const {
  std::vector<double> volumes(static_cast<std::size_t>(task_count_), 0.0);
  for (int u = 0; u < task_count_; ++u) {
    for (std::int64_t k = offsets_[u]; k < offsets_[u + 1]; ++k) volumes[u] += bytes_[k];
  }
  return volumes;
}

std::string message_matrix_path(const std::string& byte_matrix_path) {
  const std::size_t slash = byte_matrix_path.find_last_of('/');
  const std::size_t name_start = slash == std::string::npos ? 0 : slash + 1;
  const std::size_t dot = byte_matrix_path.find_last_of('.');
  // A leading dot ("dir/.mat") names a hidden file, not an extension.
  if (dot == std::string::npos || dot <= name_start) return byte_matrix_path + ".msgs";
  return byte_matrix_path.substr(0, dot) + ".msgs" + byte_matrix_path.substr(dot);
}

// Row u, column v: what u sends to v (CommGraph::sent, half the pair's bytes
// without kept directions), so reading the file back gives the same bytes and
// directions (shortest round-trip decimal form; halving is exact).
void write_dense_matrix(std::ostream& out, const CommGraph& graph) {
  const int n = graph.task_count();
  out << n << '\n';
  std::vector<double> row(static_cast<std::size_t>(n));
  for (int u = 0; u < n; ++u) {
    std::fill(row.begin(), row.end(), 0.0);
    for (std::int64_t k = graph.offsets()[u]; k < graph.offsets()[u + 1]; ++k)
      row[graph.adjacency()[k]] = graph.sent(k);
    for (int v = 0; v < n; ++v) {
      if (v > 0) out << ' ';
      write_number(out, row[v]);
    }
    out << '\n';
  }
}

void write_matrix_market(std::ostream& out, const CommGraph& graph) {
  const int n = graph.task_count();
  std::int64_t entries = 0;
  for (std::int64_t k = 0; k < graph.offsets()[n]; ++k) entries += graph.sent(k) > 0;
  out << "%%MatrixMarket matrix coordinate real general\n" << n << ' ' << n << ' ' << entries << '\n';
  for (int u = 0; u < n; ++u)
    for (std::int64_t k = graph.offsets()[u]; k < graph.offsets()[u + 1]; ++k) {
      if (!(graph.sent(k) > 0)) continue;
      out << u + 1 << ' ' << graph.adjacency()[k] + 1 << ' ';
      write_number(out, graph.sent(k));
      out << '\n';
    }
}

void check_placement_shape(const CommGraph& graph, int node_count,
                           const std::vector<int>& placement) {
  if (placement.size() != static_cast<std::size_t>(graph.task_count())) {
    throw Error("placement has " + std::to_string(placement.size()) + " entries, expected " +
                std::to_string(graph.task_count()) + " tasks");
  }
  for (std::size_t task = 0; task < placement.size(); ++task) {
    if (placement[task] < 0 || placement[task] >= node_count) {
      throw Error("task " + std::to_string(task) + " is placed on node " +
                  std::to_string(placement[task]) + ", outside 0.." +
                  std::to_string(node_count - 1));
    }
  }
}

}  // namespace tofa
