// stencil-allcorners: seed Bunde's ALLCORNERS (after Bhatele et al.'s
// "corners to center").
#include "corner_order.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Visits the eight corners in turn (stencil::kCornerTour); at each, the free
/// task nearest that corner of the job goes to the free rank nearest the same
/// corner of the bounding box (both in CORNER's order from that corner).
std::vector<int> allcorners(const stencil::StencilProblem& problem) {
  const int count = problem.job.task_count();
  std::vector<std::vector<int>> tasks, ranks;
  for (int corner : stencil::kCornerTour) {
    tasks.push_back(stencil::tasks_from_corner(problem.job, corner));
    ranks.push_back(stencil::ranks_from_corner(problem.allocation, corner));
  }
  std::vector<int> rank_of_task(count, -1);
  std::vector<char> rank_taken(count, 0);
  std::vector<std::size_t> next_task(8, 0), next_rank(8, 0);
  for (int placed = 0; placed < count; ++placed) {
    const int c = placed % 8;
    while (rank_of_task[tasks[c][next_task[c]]] >= 0) ++next_task[c];
    while (rank_taken[ranks[c][next_rank[c]]]) ++next_rank[c];
    const int task = tasks[c][next_task[c]], rank = ranks[c][next_rank[c]];
    rank_of_task[task] = rank;
    rank_taken[rank] = 1;
  }
  return rank_of_task;
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_allcorners_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-allcorners",
                                                  stencil::Rotation::Apply, allcorners);
}

}  // namespace tofa
