// default-slurm: Slurm's block distribution, the baseline of seed TOFA 5.1.
#include "strategies.hpp"

namespace tofa {
namespace {

/// Fills the first candidate with `slots` consecutive tasks, then the next
/// candidate, and so on. Like Slurm, it ignores outages and communication.
class DefaultSlurmMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    check_capacity(request);
    const std::vector<int> candidates = effective_candidates(request);
    const int slots = effective_slots(request);
    Placement placement(request.graph->task_count());
    for (int task = 0; task < static_cast<int>(placement.size()); ++task)
      placement[task] = candidates[task / slots];
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_default_slurm_mapper() {
  return std::make_unique<DefaultSlurmMapper>();
}

}  // namespace tofa
