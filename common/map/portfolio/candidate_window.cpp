#include "candidate_window.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "base/evenly_spread.hpp"
#include "base/zeroed_scratch.hpp"

namespace tofa {
namespace {

/// Up to this many candidates are searched whole (bench/quality.sh's 8x8x8
/// tori: a window there lowered (b) from 1.468 to 1.561 F/F_min).
/// Tuned on: bench/quality.sh (b).
constexpr int kWholeMachineNodes = 512;
/// The window holds this many times the nodes the job needs, and at least
/// kWindowMinNodes: room for the searches to shape the job. At 4x, auto ran
/// over its budget at 1024 tasks (83 ms for 53); 3x gave 2x's hop-bytes;
/// a 512-node window for 64 tasks left annealing too little of its 6 ms
/// budget (1.45x the unbudgeted best hop-bytes, 1.16x at 256).
/// Tuned on: bench/at_scale.sh, geometric 64 to 4096 tasks on 64x32x32.
constexpr int kWindowPerNodeNeeded = 2;
constexpr int kWindowMinNodes = 256;
/// Centers tried, spread evenly over the usable candidates in their order.
/// Not tuned: enough to find the large free regions of a half-busy torus.
constexpr int kWindowCenters = 16;

constexpr int kUnreached = std::numeric_limits<int>::max();

/// The breadth-first search's visited marks, kept per thread between
/// windows (base/zeroed_scratch.hpp): a mark equal to `stamp` is the current grow's.
struct VisitMarks {
  std::vector<unsigned char> seen;
  unsigned char stamp = 0;
};

VisitMarks& visit_marks(int node_count) {
  thread_local VisitMarks marks;
  if (marks.seen.size() < static_cast<std::size_t>(node_count)) {
    marks.seen.assign(node_count, 0);
    marks.stamp = 0;
  }
  return marks;
}

/// Breadth-first search over the torus, on the thread's scratch tables.
class BallSearch {
 public:
  /// A node may fail when its outage is above 0.
  BallSearch(const Topology& topology, const std::vector<char>& usable,
             const std::vector<double>& outage)
      : topology_(topology), usable_(usable), marks_(visit_marks(topology.node_count())),
        outage_(outage),
        stride_(topology_.dimension_count(), 1) {
    for (int d = 1; d < topology_.dimension_count(); ++d)
      stride_[d] = stride_[d - 1] * topology_.dims()[d - 1];
  }

  /// Visits nodes in order of hops from `center` and passes the usable ones
  /// to take(node) until it returns false. Returns the hops of the node
  /// that ended it, kUnreached when the usable nodes ran out or the search
  /// passed `max_hops` or more than `max_failing` nodes that may fail.
  template <typename Take>
  int grow(int center, int max_hops, int max_failing, const Take& take) {
    std::vector<unsigned char>& seen = marks_.seen;
    if (++marks_.stamp == 0) std::fill(seen.begin(), seen.end(), 0), marks_.stamp = 1;
    failing_seen_ = 0;
    frontier_.assign(1, center);
    seen[center] = marks_.stamp;
    for (int hops = 0; !frontier_.empty() && hops <= max_hops; ++hops) {
      next_.clear();
      for (int node : frontier_) {
        failing_seen_ += may_fail(node, outage_);
        if (failing_seen_ > max_failing) return kUnreached;
        if (usable_[node] && !take(node)) return hops;
        visit_neighbours(node);
      }
      frontier_.swap(next_);
    }
    return kUnreached;
  }

  /// Nodes with an outage probability the last grow passed, usable or not.
  int failing_seen() const { return failing_seen_; }

 private:
  void visit_neighbours(int node) {
    std::vector<unsigned char>& seen = marks_.seen;
    for (int d = 0; d < topology_.dimension_count(); ++d) {
      const int length = topology_.dims()[d], at = (node / stride_[d]) % length;
      const bool ring = topology_.wrap()[d];
      for (int step : {1, -1}) {
        const int to = at + step;
        if (!ring && (to < 0 || to >= length)) continue;
        const int neighbour = node + (((to + length) % length) - at) * stride_[d];
        if (seen[neighbour] == marks_.stamp) continue;
        seen[neighbour] = marks_.stamp;
        next_.push_back(neighbour);
      }
    }
  }

  const Topology& topology_;
  const std::vector<char>& usable_;
  VisitMarks& marks_;
  const std::vector<double>& outage_;
  std::vector<int> stride_;
  int failing_seen_ = 0;
  std::vector<int> frontier_, next_;
};

}  // namespace

std::size_t candidate_count(const MappingRequest& request) {
  return request.candidate_nodes.empty() ? static_cast<std::size_t>(request.topology->node_count())
                                         : request.candidate_nodes.size();
}

int nodes_needed(const MappingRequest& request) {
  const int slots = effective_slots(request);
  return (request.graph->task_count() + slots - 1) / slots;
}

std::vector<int> candidate_window(const MappingRequest& request) {
  if (candidate_count(request) <= static_cast<std::size_t>(kWholeMachineNodes)) return {};
  const int size = std::max(kWindowPerNodeNeeded * nodes_needed(request), kWindowMinNodes);
  if (candidate_count(request) <= static_cast<std::size_t>(size)) return {};
  return fault_free_ball(request, size);
}

std::vector<int> fault_free_ball(const MappingRequest& request, int size) {
  check_candidates(request);  // and the outages
  std::vector<int> every_node;
  if (request.candidate_nodes.empty()) {
    every_node.resize(request.topology->node_count());
    std::iota(every_node.begin(), every_node.end(), 0);
  }
  const std::vector<int>& candidates =
      request.candidate_nodes.empty() ? every_node : request.candidate_nodes;
  const std::vector<double>& outage = request.outage;
  const int needed = nodes_needed(request);
  std::size_t usable_count = 0;
  for (int node : candidates) usable_count += !may_fail(node, outage);
  const bool all_usable = static_cast<int>(usable_count) < needed;
  if (all_usable) usable_count = candidates.size();
  const auto usable_node = [&](int node) { return all_usable || !may_fail(node, outage); };
  if (usable_count <= static_cast<std::size_t>(size)) {
    std::vector<int> usable_list;
    for (int node : candidates)
      if (usable_node(node)) usable_list.push_back(node);
    return usable_list;
  }
  struct Usable;
  std::vector<char>& usable = zeroed_scratch<char, Usable>(request.topology->node_count());
  const ZeroedOnExit<char, std::vector<int>> unmark(usable, candidates);
  for (int node : candidates)
    if (usable_node(node)) usable[node] = 1;
  const std::vector<int> centers = evenly_spread(
      candidates, [&](int node) { return usable[node] == 1; }, usable_count, kWindowCenters);

  // The ball around each center that holds the window: the fewest failing
  // nodes in it (routes between its nodes then rarely pass one), then the smallest.
  BallSearch search(*request.topology, usable, outage);
  const auto window_around = [&](int center, int max_hops, int max_failing,
                                 std::vector<int>* window) {
    int taken = 0;
    return search.grow(center, max_hops, max_failing, [&](int node) {
      if (window) window->push_back(node);
      return ++taken < size;
    });
  };
  int best_center = centers.front(), best_failing = kUnreached, best_hops = kUnreached;
  for (int center : centers) {
    const int hops = window_around(center, best_failing == 0 ? best_hops : kUnreached - 1,
                                   best_failing, nullptr);
    const int failing = search.failing_seen();
    if (hops == kUnreached) continue;
    if (failing < best_failing || (failing == best_failing && hops < best_hops))
      best_center = center, best_failing = failing, best_hops = hops;
  }
  std::vector<int> ball;
  ball.reserve(size);
  window_around(best_center, kUnreached - 1, kUnreached, &ball);
  // The searches are done: a 2 in `usable` now marks the ball, read back
  // in candidate order (the window's order).
  for (int node : ball) usable[node] = 2;
  std::vector<int> window;
  window.reserve(size);
  for (int node : candidates)
    if (usable[node] == 2) window.push_back(node);
  return window;
}

}  // namespace tofa
