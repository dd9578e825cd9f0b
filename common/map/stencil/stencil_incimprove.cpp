// stencil-incimprove: seed Bunde's INCIMPROVE, local search from RCB. The
// seed uses it as an estimate of the best mapping, not as a production mapper;
// its future-work bounds (a number of swaps, a time limit) are parameters.
#include <chrono>
#include <utility>

#include "problem.hpp"
#include "rcb.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Starting from RCB, sweeps over all pairs of tasks on different nodes
/// (u < v, in id order) and swaps their ranks whenever that lowers the total
/// hops over the graph's edges; repeats sweeps until one makes no swap.
/// Stops early after max-swaps swaps (default 1,000,000) or max-evaluations
/// examined pairs (default 100,000,000), both deterministic, or after
/// time-limit seconds (default 0 = no limit; a time limit makes the result
/// depend on the machine's speed). Each pair costs O(degree).
std::vector<int> incimprove(const stencil::StencilProblem& problem) {
  std::vector<int> rank_of = stencil::rcb_assignment(problem);
  const long long max_swaps = stencil::count_parameter(problem, "max-swaps", 1000000);
  const long long max_evaluations =
      stencil::count_parameter(problem, "max-evaluations", 100000000);
  const double time_limit = stencil::number_parameter(problem, "time-limit", 0);
  const auto start = std::chrono::steady_clock::now();

  const CommGraph& graph = *problem.request->graph;
  const auto& offsets = graph.offsets();
  const auto& adjacency = graph.adjacency();
  const stencil::RankDistance distance(*problem.request->topology, problem.allocation);
  const std::vector<int>& node_of_rank = problem.allocation.rank_node;
  const int tasks = graph.task_count();

  // Change of u's edge hops when u moves from rank `from` to rank `to`,
  // ignoring its edge to `partner` (which a swap leaves unchanged).
  auto move_gain = [&](int u, int from, int to, int partner) {
    int change = 0;
    for (auto k = offsets[u]; k < offsets[u + 1]; ++k) {
      const int w = adjacency[k];
      if (w == partner) continue;
      change += distance(to, rank_of[w]) - distance(from, rank_of[w]);
    }
    return change;
  };

  long long swaps = 0, evaluations = 0;
  bool improved = max_swaps > 0;
  while (improved) {
    improved = false;
    for (int u = 0; u < tasks; ++u) {
      if (time_limit > 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                                          start).count() > time_limit)
        return rank_of;
      for (int v = u + 1; v < tasks; ++v) {
        if (evaluations++ >= max_evaluations) return rank_of;
        const int ru = rank_of[u], rv = rank_of[v];
        if (node_of_rank[ru] == node_of_rank[rv]) continue;
        if (move_gain(u, ru, rv, v) + move_gain(v, rv, ru, u) < 0) {
          std::swap(rank_of[u], rank_of[v]);
          improved = true;
          if (++swaps >= max_swaps) return rank_of;
        }
      }
    }
  }
  return rank_of;
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_incimprove_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-incimprove",
                                                  stencil::Rotation::Apply, incimprove);
}

}  // namespace tofa
