// Breadth-first balls on the torus: the nodes in order of hops from a center.
// The candidate window (portfolio/candidate_window.cpp) and the scheduler's
// node choice (alloc/compact_choice.cpp) both look for the compact region of
// usable nodes that passes the fewest nodes that may fail.
#pragma once

#include <limits>
#include <vector>

#include "../tofa/topology.hpp"

namespace tofa {

constexpr int kBallUnreached = std::numeric_limits<int>::max();

/// Reuses its buffers between balls of the same topology.
class BallSearch {
 public:
  /// `usable[node]`: the ball takes it; `outage`: per node, empty = all 0.
  BallSearch(const Topology& topology, const std::vector<char>& usable,
             const std::vector<double>& outage)
      : topology_(topology), usable_(usable), outage_(outage),
        seen_(topology.node_count(), 0), stride_(topology.dimension_count(), 1) {
    for (int d = 1; d < topology_.dimension_count(); ++d)
      stride_[d] = stride_[d - 1] * topology_.dims()[d - 1];
  }

  /// Visits nodes in order of hops from `center` and passes the usable ones
  /// to take(node) until it returns false. Returns the hops of the node
  /// that ended it, kBallUnreached when the usable nodes ran out or the
  /// search passed `max_hops` or more than `max_failing` nodes that may fail.
  template <typename Take>
  int grow(int center, int max_hops, int max_failing, const Take& take) {
    ++stamp_;
    failing_seen_ = 0;
    frontier_.assign(1, center);
    seen_[center] = stamp_;
    for (int hops = 0; !frontier_.empty() && hops <= max_hops; ++hops) {
      next_.clear();
      for (int node : frontier_) {
        failing_seen_ += !outage_.empty() && outage_[node] > 0;
        if (failing_seen_ > max_failing) return kBallUnreached;
        if (usable_[node] && !take(node)) return hops;
        visit_neighbours(node);
      }
      frontier_.swap(next_);
    }
    return kBallUnreached;
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
  const std::vector<double>& outage_;
  std::vector<unsigned> seen_;
  std::vector<int> stride_;
  unsigned stamp_ = 0;
  int failing_seen_ = 0;
  std::vector<int> frontier_, next_;
};

}  // namespace tofa
