// tofa (seed TOFA, Listing 1.1): Scotch maps the communication graph onto the
// first run of consecutive fault-free candidates when there is one, else onto
// the fault-weighted topology (Equation 1) restricted to the candidates.
#include "scotch_map.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

class TofaMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    check_capacity(request);
    const std::vector<int> candidates = effective_candidates(request);
    const int slots = effective_slots(request);
    const int tasks = request.graph->task_count();
    if (tasks == 0) return {};

    const int needed = (tasks + slots - 1) / slots;
    const std::vector<int> run = first_fault_free_run(request, candidates, needed);
    scotch::Lock held = scotch::lock();
    auto target = run.empty()
                      ? scotch::fault_weighted_target(*request.topology, candidates,
                                                      outage_per_node(request),
                                                      request.fault_cost, held)
                      : scotch::topology_target(*request.topology, run, held);
    return scotch_map_onto(request, target, slots, held);
  }
};

}  // namespace

std::unique_ptr<Mapper> make_tofa_mapper() { return std::make_unique<TofaMapper>(); }

}  // namespace tofa
