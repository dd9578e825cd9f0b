// greedy (seed TOFA 5.1): heaviest task pairs first, each placed as close as
// possible to its partner.
//
// Tie-breaks, so that the result is fully determined by the request:
// - pairs of equal bytes keep the (from, to) order of undirected_edges();
// - "as close as possible" is SlotPool::nearest_free: fewest hops from the
//   partner's node (its own node, 0 hops, first when it has a free slot),
//   then fault-free before faulty, then candidate order;
// - a pair with neither task placed starts at the first fault-free candidate
//   with a free slot (any free candidate if none is fault-free) when nothing
//   is placed yet, else at the free node nearest to the last placed task;
//   its lower task id goes first;
// - tasks without edges (or whose edges carry 0 bytes) take the first free
//   slot in candidate order, after all pairs.
#include <algorithm>

#include "../slot_pool.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

class GreedyMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    check_capacity(request);
    SlotPool pool(request, effective_candidates(request), effective_slots(request));
    Placement placement(request.graph->task_count(), -1);
    int last_node = -1;
    auto place = [&](int task, int node) {
      pool.take(node);
      placement[task] = node;
      last_node = node;
    };

    std::vector<CommEdge> pairs = request.graph->undirected_edges();
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const CommEdge& a, const CommEdge& b) { return a.bytes > b.bytes; });
    for (const CommEdge& pair : pairs) {
      if (pair.bytes <= 0) break;
      int a = pair.from;
      int b = pair.to;
      if (placement[a] >= 0 && placement[b] >= 0) continue;
      if (placement[a] < 0 && placement[b] < 0) {
        const int start = last_node < 0 ? pool.first_free(true) : pool.nearest_free(last_node);
        place(a, start);
      }
      if (placement[a] < 0) std::swap(a, b);  // now a is placed, b is not
      place(b, pool.nearest_free(placement[a]));
    }
    for (int task = 0; task < static_cast<int>(placement.size()); ++task)
      if (placement[task] < 0) place(task, pool.first_free(false));
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_greedy_mapper() { return std::make_unique<GreedyMapper>(); }

}  // namespace tofa
