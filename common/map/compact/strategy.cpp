// compact: the scheduler's node choice (compact_choice) as a strategy, on
// the request's candidates with its slots per node: what a job runs when
// its own strategy has not ordered its tasks within PlacementWait.
#include <utility>

#include "compact_choice.hpp"
#include "map/mapper.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

class CompactMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    Capacity fit = check_capacity(request);
    TaskLimits limits;
    limits.nodes = std::move(fit.candidates);
    limits.max_tasks.assign(limits.nodes.size(), fit.slots);
    return compact_choice(*request.topology, limits, request.outage, fit.tasks, 0, 0);
  }
};

}  // namespace

std::unique_ptr<Mapper> make_compact_mapper() { return std::make_unique<CompactMapper>(); }

}  // namespace tofa
