// default-slurm: Slurm's block distribution, the baseline of seed TOFA 5.1.
#include "strategies.hpp"

namespace tofa {
namespace {

/// Fills the first candidate with `slots` consecutive tasks, then the next
/// candidate, and so on. Like Slurm, it ignores outages and communication.
class DefaultSlurmMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const Capacity fit = check_capacity(request);
    Placement placement(fit.tasks);
    for (int task = 0; task < fit.tasks; ++task) placement[task] = fit.candidates[task / fit.slots];
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_default_slurm_mapper() {
  return std::make_unique<DefaultSlurmMapper>();
}

}  // namespace tofa
