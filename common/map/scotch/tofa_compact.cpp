// tofa-compact: Listing 1.1 while a run of consecutive fault-free candidates
// exists. Without one, Listing 1.1 maps onto the whole fault-weighted target,
// and Scotch then spreads the job over many nodes, faulty ones included. This
// strategy instead takes the shortest window of the candidate order that holds
// enough fault-free nodes and maps onto those nodes only, over the
// fault-weighted target (Equation 1), so routes through the window's faulty
// nodes still cost more. With too few fault-free candidates, the least faulty
// ones make up the difference.
#include <algorithm>
#include <numeric>

#include "scotch_map.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// `needed` nodes: the fault-free candidates of the shortest window (in
/// candidate order) holding `needed` of them, else all fault-free candidates
/// plus the least faulty others.
std::vector<int> compact_target_nodes(const MappingRequest& request,
                                      const std::vector<int>& candidates, int needed) {
  std::vector<int> fault_free_positions;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (outage_of(request, candidates[i]) == 0) fault_free_positions.push_back(static_cast<int>(i));

  std::vector<int> nodes;
  const int fault_free = static_cast<int>(fault_free_positions.size());
  if (fault_free >= needed) {
    int best = 0;
    for (int first = 1; first + needed <= fault_free; ++first) {
      int span = fault_free_positions[first + needed - 1] - fault_free_positions[first];
      int best_span = fault_free_positions[best + needed - 1] - fault_free_positions[best];
      if (span < best_span) best = first;
    }
    for (int k = best; k < best + needed; ++k) nodes.push_back(candidates[fault_free_positions[k]]);
    return nodes;
  }
  std::vector<int> order(candidates.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return outage_of(request, candidates[a]) < outage_of(request, candidates[b]);
  });
  order.resize(needed);
  std::sort(order.begin(), order.end());  // back to candidate order
  for (int position : order) nodes.push_back(candidates[position]);
  return nodes;
}

class TofaCompactMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    return map_fault_free_run_or(request, compact_target_nodes);
  }
};

}  // namespace

std::unique_ptr<Mapper> make_tofa_compact_mapper() {
  return std::make_unique<TofaCompactMapper>();
}

}  // namespace tofa
