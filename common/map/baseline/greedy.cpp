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

#include "heaviest_pairs.hpp"
#include "map/slot_pool.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

class GreedyMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const Capacity fit = check_capacity(request);
    SlotPool pool(request, fit.candidates, fit.slots);
    Placement placement(fit.tasks, -1);
    int last_node = -1;
    auto place = [&](int task, int node) {
      pool.take(node);
      placement[task] = node;
      last_node = node;
    };

    place_heaviest_pairs_first(
        *request.graph, placement,
        [&](int task) {
          place(task, last_node < 0 ? pool.first_free(true) : pool.nearest_free(last_node));
        },
        [&](int task, int node) { place(task, pool.nearest_free(node)); },
        [&](int task) { place(task, pool.first_free(false)); });
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_greedy_mapper() { return std::make_unique<GreedyMapper>(); }

}  // namespace tofa
