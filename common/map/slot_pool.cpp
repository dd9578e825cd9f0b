#include "slot_pool.hpp"

#include <climits>

#include "../tofa/error.hpp"

namespace tofa {
namespace {

/// Up to this many nodes a linear scan is cheaper than a search.
constexpr std::size_t kScanNodes = 512;

}  // namespace

SlotPool::SlotPool(const MappingRequest& request, std::vector<int> nodes, int slots)
    : SlotPool(request, nodes, std::vector<int>(nodes.size(), slots)) {}

SlotPool::SlotPool(const MappingRequest& request, std::vector<int> nodes,
                   const std::vector<int>& slots)
    : topology_(*request.topology),
      nodes_(std::move(nodes)),
      free_(topology_.node_count(), 0),
      faulty_(topology_.node_count(), 0),
      position_(topology_.node_count(), -1) {
  if (slots.size() != nodes_.size()) throw Error("internal: one slot count per node expected");
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    free_[nodes_[i]] = slots[i];
    faulty_[nodes_[i]] = outage_of(request, nodes_[i]) > 0;
    position_[nodes_[i]] = static_cast<int>(i);
    free_total_ += slots[i];
  }
}

void SlotPool::take(int node) {
  if (free_[node] <= 0) throw Error("internal: node " + std::to_string(node) + " has no free slot");
  --free_[node];
  --free_total_;
}

int SlotPool::nearest_free(int origin) const {
  if (free_total_ <= 0) return -1;
  return nodes_.size() <= kScanNodes ? nearest_free_by_scan(origin)
                                     : nearest_free_by_search(origin);
}

int SlotPool::nearest_free_by_scan(int origin) const {
  int best = -1;
  int best_hops = INT_MAX;
  bool best_faulty = true;
  for (int node : nodes_) {
    if (free_[node] <= 0) continue;
    const int hops = topology_.hop_distance(origin, node);
    const bool faulty = faulty_[node];
    // Strictly better only: the earlier node in list order wins a full tie.
    if (hops < best_hops || (hops == best_hops && best_faulty && !faulty)) {
      best = node;
      best_hops = hops;
      best_faulty = faulty;
    }
  }
  return best;
}

int SlotPool::nearest_free_by_search(int origin) const {
  if (seen_at_.empty()) seen_at_.assign(topology_.node_count(), 0);
  if (++search_ == 0) {  // the stamps wrapped around
    std::fill(seen_at_.begin(), seen_at_.end(), 0);
    search_ = 1;
  }
  frontier_.assign(1, origin);
  seen_at_[origin] = search_;
  while (!frontier_.empty()) {
    const int best = best_free_of(frontier_);
    if (best >= 0) return best;
    next_.clear();
    for (int node : frontier_)
      for (int neighbour : topology_.neighbours(node))
        if (seen_at_[neighbour] != search_) {
          seen_at_[neighbour] = search_;
          next_.push_back(neighbour);
        }
    frontier_.swap(next_);
  }
  return -1;
}

int SlotPool::best_free_of(const std::vector<int>& candidates) const {
  int best = -1;
  for (int node : candidates) {
    if (free_[node] <= 0) continue;
    if (best < 0 || (faulty_[best] && !faulty_[node]) ||
        (faulty_[best] == faulty_[node] && position_[node] < position_[best]))
      best = node;
  }
  return best;
}

int SlotPool::first_free(bool prefer_fault_free) const {
  int first = -1;
  for (int node : nodes_) {
    if (free_[node] <= 0) continue;
    if (!prefer_fault_free || !faulty_[node]) return node;
    if (first < 0) first = node;
  }
  return first;
}

}  // namespace tofa
