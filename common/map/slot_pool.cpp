#include "slot_pool.hpp"

#include <climits>

#include "base/error.hpp"

namespace tofa {
namespace {

/// Up to this many nodes a scan of the free ones is cheaper than boxes.
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
  free_index_.assign(topology_.node_count(), -1);
  for (int node : nodes_)
    if (free_[node] > 0 && free_index_[node] < 0) {
      free_index_[node] = static_cast<int>(free_nodes_.size());
      free_nodes_.push_back(node);
    }
  if (nodes_.size() > kScanNodes) boxes_ = std::make_unique<FreeNodeBoxes>(topology_, free_nodes_);
}

SlotPool::~SlotPool() = default;

void SlotPool::take(int node) {
  if (free_[node] <= 0) throw Error("internal: node " + std::to_string(node) + " has no free slot");
  --free_total_;
  if (--free_[node] > 0) return;
  const int index = free_index_[node];
  free_nodes_[index] = free_nodes_.back();
  free_index_[free_nodes_[index]] = index;
  free_nodes_.pop_back();
  free_index_[node] = -1;
  if (boxes_) boxes_->mark_full(node);
}

int SlotPool::nearest_free(int origin) const {
  const auto better = [&](int a, int b) {
    return faulty_[a] != faulty_[b] ? faulty_[a] < faulty_[b] : position_[a] < position_[b];
  };
  if (boxes_) return boxes_->nearest(origin, better);
  int best = -1;
  int best_hops = INT_MAX;
  for (int node : free_nodes_) {
    const int hops = topology_.hop_distance(origin, node);
    if (best < 0 || hops < best_hops || (hops == best_hops && better(node, best))) {
      best = node;
      best_hops = hops;
    }
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
