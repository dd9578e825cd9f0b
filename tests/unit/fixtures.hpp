// Shared test fixtures: temporary files and canonical graphs.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "graph/graph.hpp"
#include "map/mapper.hpp"

namespace tofa_test {

/// The build tree's tofa-map-worker binary: under .libs when libtofa is
/// shared (the test's LD_LIBRARY_PATH finds libtofa; the file beside it is
/// libtool's wrapper script), else in tools/ itself (make check exports
/// top_builddir).
inline std::string map_worker_program() {
  const char* build = std::getenv("top_builddir");
  const std::string tools = std::string(build ? build : ".") + "/tools/";
  char resolved[4096];
  for (const char* name : {".libs/tofa-map-worker", "tofa-map-worker"})
    if (realpath((tools + name).c_str(), resolved)) return resolved;
  return tools + "tofa-map-worker";
}

/// A tofa.conf line that makes the service map in the build tree's worker.
inline std::string map_worker_line() { return "MapWorker=" + map_worker_program() + "\n"; }

/// A file with the given content that is removed when the object dies.
class TempFile {
 public:
  explicit TempFile(const std::string& content, const std::string& suffix = ".txt") {
    char pattern[] = "/tmp/tofa-test-XXXXXX";
    int fd = mkstemp(pattern);
    if (fd < 0) std::abort();
    close(fd);
    std::remove(pattern);
    path_ = std::string(pattern) + suffix;
    std::ofstream(path_) << content;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// X x Y x Z 3D stencil (6 nearest neighbours, no wrap); each undirected edge weighs `bytes`.
/// Task id = x + X*(y + Y*z).
inline tofa::CommGraph stencil_graph(int sx, int sy, int sz, double bytes = 1.0) {
  std::vector<tofa::CommEdge> edges;
  auto id = [&](int x, int y, int z) { return x + sx * (y + sy * z); };
  for (int z = 0; z < sz; ++z)
    for (int y = 0; y < sy; ++y)
      for (int x = 0; x < sx; ++x) {
        if (x + 1 < sx) edges.push_back({id(x, y, z), id(x + 1, y, z), bytes, 1});
        if (y + 1 < sy) edges.push_back({id(x, y, z), id(x, y + 1, z), bytes, 1});
        if (z + 1 < sz) edges.push_back({id(x, y, z), id(x, y, z + 1), bytes, 1});
      }
  return tofa::CommGraph::from_directed_edges(sx * sy * sz, edges);
}

/// The what() of the tofa::Error that `statement` throws, or "<no exception>".
template <typename Statement>
std::string error_text(Statement statement) {
  try {
    statement();
  } catch (const tofa::Error& error) {
    return error.what();
  }
  return "<no exception>";
}

/// `tasks` tasks, each sending to 3 random others with random byte counts.
inline tofa::CommGraph random_sparse_graph(int tasks, unsigned seed) {
  std::mt19937 engine(seed);
  std::vector<tofa::CommEdge> edges;
  for (int from = 0; from < tasks; ++from)
    for (int k = 0; k < 3; ++k) {
      const int to = static_cast<int>(engine() % tasks);
      if (to != from) edges.push_back({from, to, 1.0 + engine() % 100000, 1});
    }
  return tofa::CommGraph::from_directed_edges(tasks, edges);
}

/// Ring of n tasks, `bytes` on each edge.
inline tofa::CommGraph ring_graph(int n, double bytes = 1.0) {
  std::vector<tofa::CommEdge> edges;
  for (int i = 0; i < n; ++i) edges.push_back({i, (i + 1) % n, bytes, 1});
  return tofa::CommGraph::from_directed_edges(n, edges);
}

/// A request for `graph` on every node of `topology`, no node failing yet
/// (an outage entry per node to set).
inline tofa::MappingRequest request_on(const tofa::Topology& topology,
                                       const tofa::CommGraph& graph) {
  tofa::MappingRequest request;
  request.topology = &topology;
  request.graph = &graph;
  request.outage.assign(topology.node_count(), 0.0);
  return request;
}

}  // namespace tofa_test
