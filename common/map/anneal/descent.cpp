#include "descent.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tofa {
namespace anneal {
namespace {

// Partners whose neighbourhoods a task tries, heaviest first: all of them on
// lattices (Cubic 2 has 12), a bounded share of a power-law hub's.
constexpr std::size_t kDescentPartners = 12;

/// The kDescentPartners heaviest partners of every task of `movable`.
std::vector<std::vector<int>> heaviest_partners(const CommGraph& graph,
                                                const std::vector<int>& movable) {
  std::vector<std::vector<int>> result(graph.task_count());
  std::vector<std::pair<double, int>> partners;
  for (int task : movable) {
    partners.clear();
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k)
      partners.emplace_back(-graph.bytes()[k], graph.adjacency()[k]);
    const std::size_t keep = std::min(partners.size(), kDescentPartners);
    std::partial_sort(partners.begin(), partners.begin() + keep, partners.end());
    for (std::size_t i = 0; i < keep; ++i) result[task].push_back(partners[i].second);
  }
  return result;
}

}  // namespace

std::uint64_t local_descent(PlacementState& state, const SiteNeighbourhood& around,
                            const std::vector<int>& movable, bool keep_lowest, int passes,
                            Deadline deadline) {
  const CommGraph& graph = state.graph();
  std::vector<char> is_movable(state.task_count(), 0);
  for (int task : movable) is_movable[task] = 1;
  std::vector<std::uint64_t> seen_at(state.site_count(), 0);
  std::uint64_t visit = 0;  // one stamp per task per pass
  std::vector<int> targets;
  std::uint64_t tried = 0;
  const std::vector<std::vector<int>> partners = heaviest_partners(graph, movable);

  auto add_site = [&](int site) {
    if (seen_at[site] != visit) targets.push_back(site), seen_at[site] = visit;
  };
  auto add_box = [&](int centre) {
    if (centre < 0) return;
    add_site(centre);
    for (int site : around.around(centre)) add_site(site);
  };

  for (int pass = 0; pass < passes; ++pass) {
    bool improved = false;
    for (int task : movable) {
      if (deadline != Deadline::max() && std::chrono::steady_clock::now() >= deadline)
        return tried;
      targets.clear();
      ++visit;
      add_box(state.site_of(task));
      for (int partner : partners[task]) add_box(state.site_of(partner));
      for (int to : targets) {
        const int from = state.site_of(task);
        if (to == from) continue;
        int best_other = -2;  // -1: a move; -2: nothing yet
        double best_delta = 0;
        if (state.can_move(from, to, keep_lowest)) {
          best_other = -1;
          best_delta = state.move_delta(task, to);
          ++tried;
        }
        for (int other : state.tasks_on(to)) {
          if (!is_movable[other]) continue;
          const double delta = state.swap_delta(task, other);
          ++tried;
          if (best_other == -2 || delta < best_delta) {
            best_other = other;
            best_delta = delta;
          }
        }
        if (best_other == -2 || !(best_delta < -1e-12 * std::max(1.0, std::abs(best_delta))))
          continue;
        if (best_other >= 0)
          state.swap(task, best_other);
        else
          state.move(task, to);
        improved = true;
      }
    }
    if (!improved) break;
  }
  return tried;
}

}  // namespace anneal
}  // namespace tofa
