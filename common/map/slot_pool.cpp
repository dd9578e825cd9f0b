#include "slot_pool.hpp"

#include <climits>

#include "../tofa/error.hpp"

namespace tofa {
namespace {

/// Up to this many nodes a linear scan is cheaper than a search.
constexpr std::size_t kScanNodes = 512;
/// A search that has visited this many times the free nodes finishes as a
/// scan of the free nodes: on a nearly full machine the nearest free node
/// can be far (greedy on 65,536 nodes, one task each: 16 s of searches).
constexpr std::size_t kSearchPerFreeNode = 4;

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
  free_index_.assign(topology_.node_count(), -1);
  for (int node : nodes_)
    if (free_[node] > 0 && free_index_[node] < 0) {
      free_index_[node] = static_cast<int>(free_nodes_.size());
      free_nodes_.push_back(node);
    }
}

void SlotPool::take(int node) {
  if (free_[node] <= 0) throw Error("internal: node " + std::to_string(node) + " has no free slot");
  --free_total_;
  if (--free_[node] > 0) return;
  const int index = free_index_[node];
  free_nodes_[index] = free_nodes_.back();
  free_index_[free_nodes_[index]] = index;
  free_nodes_.pop_back();
  free_index_[node] = -1;
}

int SlotPool::nearest_free(int origin) const {
  if (free_total_ <= 0) return -1;
  return nodes_.size() <= kScanNodes ? nearest_free_by_scan(origin)
                                     : nearest_free_by_search(origin);
}

int SlotPool::nearest_free_by_scan(int origin) const {
  int best = -1;
  int best_hops = INT_MAX;
  for (int node : free_nodes_) {
    const int hops = topology_.hop_distance(origin, node);
    if (best < 0 || hops < best_hops ||
        (hops == best_hops && (faulty_[best] > faulty_[node] ||
                               (faulty_[best] == faulty_[node] && position_[node] < position_[best])))) {
      best = node;
      best_hops = hops;
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
  std::size_t visited = 1;
  while (!frontier_.empty()) {
    const int best = best_free_of(frontier_);
    if (best >= 0) return best;
    if (visited > kSearchPerFreeNode * free_nodes_.size()) return nearest_free_by_scan(origin);
    next_.clear();
    for (int node : frontier_)
      for (int neighbour : topology_.neighbours(node))
        if (seen_at_[neighbour] != search_) {
          seen_at_[neighbour] = search_;
          next_.push_back(neighbour);
        }
    frontier_.swap(next_);
    visited += frontier_.size();
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
  // Slots are only ever taken: a first free node never moves back.
  std::size_t& any = first_free_any_;
  while (any < nodes_.size() && free_[nodes_[any]] <= 0) ++any;
  if (any == nodes_.size()) return -1;
  if (!prefer_fault_free) return nodes_[any];
  std::size_t& clean = first_free_fault_free_;
  while (clean < nodes_.size() && (free_[nodes_[clean]] <= 0 || faulty_[nodes_[clean]])) ++clean;
  return nodes_[clean < nodes_.size() ? clean : any];
}

}  // namespace tofa
