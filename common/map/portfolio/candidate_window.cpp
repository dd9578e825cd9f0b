#include "candidate_window.hpp"

#include <algorithm>
#include <limits>

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

/// Breadth-first search over the torus, reusing its buffers between balls.
/// Its tables are bytes: at 65,536 nodes the window is part of every budget.
class BallSearch {
 public:
  /// `usable` and `failing` per node.
  BallSearch(const Topology& topology, const std::vector<char>& usable,
             const std::vector<char>& failing)
      : topology_(topology), usable_(usable), failing_(failing),
        seen_(topology_.node_count(), 0), stride_(topology_.dimension_count(), 1) {
    for (int d = 1; d < topology_.dimension_count(); ++d)
      stride_[d] = stride_[d - 1] * topology_.dims()[d - 1];
  }

  /// Visits nodes in order of hops from `center` and passes the usable ones
  /// to take(node) until it returns false. Returns the hops of the node
  /// that ended it, kUnreached when the usable nodes ran out or the search
  /// passed `max_hops` or more than `max_failing` nodes that may fail.
  template <typename Take>
  int grow(int center, int max_hops, int max_failing, const Take& take) {
    if (++stamp_ == 0) std::fill(seen_.begin(), seen_.end(), 0), stamp_ = 1;
    failing_seen_ = 0;
    frontier_.assign(1, center);
    seen_[center] = stamp_;
    for (int hops = 0; !frontier_.empty() && hops <= max_hops; ++hops) {
      next_.clear();
      for (int node : frontier_) {
        failing_seen_ += failing_[node];
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
    for (int d = 0; d < topology_.dimension_count(); ++d) {
      const int length = topology_.dims()[d], at = (node / stride_[d]) % length;
      const bool ring = topology_.wrap()[d];
      for (int step : {1, -1}) {
        const int to = at + step;
        if (!ring && (to < 0 || to >= length)) continue;
        const int neighbour = node + (((to + length) % length) - at) * stride_[d];
        if (seen_[neighbour] == stamp_) continue;
        seen_[neighbour] = stamp_;
        next_.push_back(neighbour);
      }
    }
  }

  const Topology& topology_;
  const std::vector<char>& usable_;
  const std::vector<char>& failing_;
  std::vector<unsigned char> seen_;
  std::vector<int> stride_;
  unsigned char stamp_ = 0;
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
  const std::vector<int> candidates = effective_candidates(request);  // validates the outages
  const int needed = nodes_needed(request);
  std::vector<char> failing(request.topology->node_count(), 0);
  for (std::size_t node = 0; node < request.outage.size(); ++node)
    failing[node] = request.outage[node] > 0;
  std::vector<int> usable_list;
  for (int node : candidates)
    if (!failing[node]) usable_list.push_back(node);
  if (static_cast<int>(usable_list.size()) < needed) usable_list = candidates;
  if (static_cast<int>(usable_list.size()) <= size) return usable_list;
  std::vector<char> usable(request.topology->node_count(), 0);
  for (int node : usable_list) usable[node] = 1;

  // The ball around each center that holds the window: the fewest failing
  // nodes in it (routes between its nodes then rarely pass one), then the smallest.
  BallSearch search(*request.topology, usable, failing);
  const auto window_around = [&](int center, int max_hops, int max_failing,
                                 std::vector<int>* window) {
    int taken = 0;
    return search.grow(center, max_hops, max_failing, [&](int node) {
      if (window) window->push_back(node);
      return ++taken < size;
    });
  };
  int best_center = usable_list.front(), best_failing = kUnreached, best_hops = kUnreached;
  const std::size_t step = usable_list.size() / kWindowCenters;
  for (int i = 0; i < kWindowCenters; ++i) {
    const int center = usable_list[step / 2 + i * step];
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
  // in candidate order (the window's order) without a second node table.
  for (int node : ball) usable[node] = 2;
  std::vector<int> window;
  window.reserve(size);
  for (int node : candidates)
    if (usable[node] == 2) window.push_back(node);
  return window;
}

}  // namespace tofa
