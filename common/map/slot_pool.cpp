#include "slot_pool.hpp"

#include <algorithm>
#include <climits>

#include "base/error.hpp"

namespace tofa {
namespace {

/// Up to this many nodes a scan of the free ones is cheaper than boxes.
constexpr std::size_t kScanNodes = 512;
/// The node -> position table is per node id from this share of the nodes.
/// Not tuned: where a sorted list's lookups start to cost more than the table's pages.
constexpr std::size_t kDenseShare = 16;

}  // namespace

SlotPool::SlotPool(const MappingRequest& request, std::vector<int> nodes, int slots)
    : SlotPool(request, nodes, std::vector<int>(nodes.size(), slots)) {}

SlotPool::SlotPool(const MappingRequest& request, std::vector<int> nodes,
                   const std::vector<int>& slots)
    : topology_(*request.topology),
      nodes_(std::move(nodes)),
      free_(slots),
      faulty_(nodes_.size(), 0),
      free_index_(nodes_.size(), -1) {
  if (slots.size() != nodes_.size()) throw Error("internal: one slot count per node expected");
  if (nodes_.size() * kDenseShare >= static_cast<std::size_t>(topology_.node_count())) {
    dense_position_.assign(topology_.node_count(), -1);
    for (std::size_t i = 0; i < nodes_.size(); ++i) dense_position_[nodes_[i]] = static_cast<int>(i);
  } else {
    sorted_positions_.reserve(nodes_.size());
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      sorted_positions_.emplace_back(nodes_[i], static_cast<int>(i));
    std::sort(sorted_positions_.begin(), sorted_positions_.end());
  }
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    faulty_[i] = outage_of(request, nodes_[i]) > 0;
    free_total_ += slots[i];
    if (free_[i] > 0) {
      free_index_[i] = static_cast<int>(free_nodes_.size());
      free_nodes_.push_back(nodes_[i]);
    }
  }
  if (nodes_.size() > kScanNodes) boxes_ = std::make_unique<FreeNodeBoxes>(topology_, free_nodes_);
}

SlotPool::~SlotPool() = default;

int SlotPool::position(int node) const {
  if (!dense_position_.empty())
    return node >= 0 && node < static_cast<int>(dense_position_.size()) ? dense_position_[node] : -1;
  const auto found = std::lower_bound(sorted_positions_.begin(), sorted_positions_.end(),
                                      std::make_pair(node, -1));
  return found != sorted_positions_.end() && found->first == node ? found->second : -1;
}

void SlotPool::take(int node) {
  const int at = position(node);
  if (at < 0 || free_[at] <= 0)
    throw Error("internal: node " + std::to_string(node) + " has no free slot");
  --free_total_;
  if (--free_[at] > 0) return;
  const int index = free_index_[at];
  free_nodes_[index] = free_nodes_.back();
  free_index_[position(free_nodes_[index])] = index;
  free_nodes_.pop_back();
  free_index_[at] = -1;
  if (boxes_) boxes_->mark_full(node);
}

int SlotPool::nearest_free(int origin) const {
  const auto better = [&](int a, int b) {
    const int at = position(a), bt = position(b);
    return faulty_[at] != faulty_[bt] ? faulty_[at] < faulty_[bt] : at < bt;
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
  while (any < nodes_.size() && free_[any] <= 0) ++any;
  if (any == nodes_.size()) return -1;
  if (!prefer_fault_free) return nodes_[any];
  std::size_t& clean = first_free_fault_free_;
  while (clean < nodes_.size() && (free_[clean] <= 0 || faulty_[clean])) ++clean;
  return nodes_[clean < nodes_.size() ? clean : any];
}

}  // namespace tofa
