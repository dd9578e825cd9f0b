// SlotPool: linear scans, which stay well below a millisecond for 4096 nodes.
#include "slot_pool.hpp"

#include <climits>

#include "../tofa/error.hpp"

namespace tofa {

SlotPool::SlotPool(const MappingRequest& request, std::vector<int> nodes, int slots)
    : SlotPool(request, nodes, std::vector<int>(nodes.size(), slots)) {}

SlotPool::SlotPool(const MappingRequest& request, std::vector<int> nodes,
                   const std::vector<int>& slots)
    : topology_(*request.topology),
      nodes_(std::move(nodes)),
      free_(topology_.node_count(), 0),
      faulty_(topology_.node_count(), 0) {
  if (slots.size() != nodes_.size()) throw Error("internal: one slot count per node expected");
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    free_[nodes_[i]] = slots[i];
    faulty_[nodes_[i]] = outage_of(request, nodes_[i]) > 0;
  }
}

void SlotPool::take(int node) {
  if (free_[node] <= 0) throw Error("internal: node " + std::to_string(node) + " has no free slot");
  --free_[node];
}

int SlotPool::nearest_free(int origin) const {
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
