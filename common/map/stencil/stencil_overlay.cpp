// stencil-overlay: seed Bunde's OVERLAY.
#include "free_rank_grid.hpp"
#include "linear_order.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

using stencil::Triple;

/// Lays the job over the machine with task (0,0,0) on the basepoint, the
/// coordinatewise minimum of the ranks; in column-major order each task takes
/// the free rank nearest its overlaid position.
std::vector<int> overlay(const stencil::StencilProblem& problem) {
  const Triple& base = problem.allocation.low;
  stencil::FreeRankGrid free_ranks(problem.allocation);
  std::vector<int> rank_of_task(problem.job.task_count());
  for (int task : stencil::tasks_in_order(problem.job, stencil::kColumnMajor)) {
    const Triple p = problem.job.grid_of(task);
    rank_of_task[task] = free_ranks.take_nearest({base[0] + p[0], base[1] + p[1], base[2] + p[2]});
  }
  return rank_of_task;
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_overlay_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-overlay", stencil::Rotation::Apply,
                                                  overlay);
}

}  // namespace tofa
