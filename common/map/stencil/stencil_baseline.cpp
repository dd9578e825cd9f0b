// stencil-baseline: seed Bunde's BASELINE, the mapping of ALPS/Moab/miniGhost.
#include <numeric>

#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Task t (row-major: x fastest) on rank t (ranks in allocation order, the
/// ranks of a node consecutive). No rotation.
std::vector<int> baseline(const stencil::StencilProblem& problem) {
  std::vector<int> rank_of_task(problem.job.task_count());
  std::iota(rank_of_task.begin(), rank_of_task.end(), 0);
  return rank_of_task;
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_baseline_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-baseline", stencil::Rotation::Never,
                                                  baseline);
}

}  // namespace tofa
