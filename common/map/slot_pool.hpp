// Free task slots on a set of nodes, and where the nearest free one is.
// Shared by the greedy strategy and the capacity repair after Scotch.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "free_node_boxes.hpp"
#include "map/mapper.hpp"

namespace tofa {

class SlotPool {
 public:
  /// Every node of `nodes` starts with `slots` free slots. The order of
  /// `nodes` breaks the last tie of nearest_free and decides first_free.
  /// Outages come from `request` (a node with p > 0 is "faulty").
  SlotPool(const MappingRequest& request, std::vector<int> nodes, int slots);
  /// Node nodes[i] starts with slots[i] free slots.
  SlotPool(const MappingRequest& request, std::vector<int> nodes, const std::vector<int>& slots);
  ~SlotPool();

  bool has_free(int node) const {
    const int at = position(node);
    return at >= 0 && free_[at] > 0;
  }
  /// Uses one slot of `node` (which must have one free).
  void take(int node);

  /// The node with a free slot that minimises, in order: hops from `origin`
  /// (0 when `origin` itself has a free slot), being faulty, position in the
  /// node list. -1 when every slot is taken. A scan of the free nodes for
  /// small pools; above, FreeNodeBoxes (a breadth-first search outward from
  /// `origin` took greedy 16 s on 65,536 nodes, through the full ones).
  int nearest_free(int origin) const;
  /// The first node in list order with a free slot, fault-free ones first
  /// when `prefer_fault_free`. -1 when every slot is taken.
  int first_free(bool prefer_fault_free) const;

 private:
  /// Index of `node` in nodes_, -1 outside the pool.
  int position(int node) const;

  const Topology& topology_;
  std::vector<int> nodes_;
  // Per position in nodes_: a pool of 64 nodes on a 65,536-node torus kept
  // four node-sized tables before (~800 KB, 2.3 ms of fresh pages a job).
  std::vector<int> free_;
  std::vector<char> faulty_;
  std::vector<int> free_index_;  // index in free_nodes_, -1 if none
  // node -> position: per node id when the pool holds at least
  // 1/kDenseShare of the nodes, else (node, position) sorted by node.
  std::vector<int> dense_position_;
  std::vector<std::pair<int, int>> sorted_positions_;
  long long free_total_ = 0;
  std::vector<int> free_nodes_;  // nodes with a free slot, in no order
  mutable std::size_t first_free_any_ = 0, first_free_fault_free_ = 0;  // first_free's cursors
  std::unique_ptr<FreeNodeBoxes> boxes_;  // above kScanNodes nodes
};

}  // namespace tofa
