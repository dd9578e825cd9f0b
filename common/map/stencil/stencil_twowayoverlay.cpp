// stencil-twowayoverlay: seed Bunde's TWOWAYOVERLAY.
#include "free_rank_grid.hpp"
#include "linear_order.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

using stencil::Triple;

/// OVERLAY from both ends: alternately the next task in column-major order
/// from the front bottom left, overlaid from the minimum basepoint, and the
/// next task in reverse order from the back top right, overlaid from the
/// maximum basepoint (the coordinatewise maximum of the ranks); each takes
/// the free rank nearest its overlaid position.
std::vector<int> twowayoverlay(const stencil::StencilProblem& problem) {
  const Triple& low = problem.allocation.low;
  const Triple& high = problem.allocation.high;
  const Triple& dims = problem.job.dims();
  stencil::FreeRankGrid free_ranks(problem.allocation);
  const std::vector<int> order = stencil::tasks_in_order(problem.job, stencil::kColumnMajor);
  const int count = static_cast<int>(order.size());
  std::vector<int> rank_of_task(count, -1);
  int front = 0, back = count - 1;
  for (int placed = 0; placed < count; ++placed) {
    if (placed % 2 == 0) {
      const int task = order[front++];
      const Triple p = problem.job.grid_of(task);
      rank_of_task[task] = free_ranks.take_nearest({low[0] + p[0], low[1] + p[1], low[2] + p[2]});
    } else {
      const int task = order[back--];
      const Triple p = problem.job.grid_of(task);
      rank_of_task[task] = free_ranks.take_nearest({high[0] - (dims[0] - 1 - p[0]),
                                                    high[1] - (dims[1] - 1 - p[1]),
                                                    high[2] - (dims[2] - 1 - p[2])});
    }
  }
  return rank_of_task;
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_twowayoverlay_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-twowayoverlay",
                                                  stencil::Rotation::Apply, twowayoverlay);
}

}  // namespace tofa
