// stencil-ordered: seed Bunde's ORDERED, the best of several linear orders.
#include "base/error.hpp"
#include "linear_order.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

using stencil::Triple;

/// Axis nestings tried, fastest axis first: row major and column major (the
/// seed's two), then the other four permutations (orders=all, the default).
constexpr Triple kNestings[6] = {{0, 1, 2}, {1, 0, 2}, {0, 2, 1}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}};

/// For every nesting and every combination of flips of the ranks' axes,
/// pairs the tasks in that nesting with the ranks in that flipped order and
/// keeps the mapping with the lowest average hops (the first one on ties).
/// Flips of an axis the allocation does not extend along are skipped: they
/// give the same order.
std::vector<int> ordered(const stencil::StencilProblem& problem) {
  const std::string which = parameter(*problem.request, "orders", "all");
  if (which != "all" && which != "rowcol") {
    throw Error(problem.strategy + ": parameter orders: expected all or rowcol, found '" +
                which + "'");
  }
  const int nestings = which == "all" ? 6 : 2;
  const Triple extent = problem.allocation.extent();
  std::vector<int> best;
  double best_hops = 0;
  for (int n = 0; n < nestings; ++n) {
    const std::vector<int> tasks = stencil::tasks_in_order(problem.job, kNestings[n]);
    for (int flips = 0; flips < 8; ++flips) {
      stencil::LinearOrder order;
      order.nesting = kNestings[n];
      bool useless = false;
      for (int axis = 0; axis < 3; ++axis) {
        order.reversed[axis] = (flips >> axis) & 1;
        if (order.reversed[axis] && extent[axis] == 1) useless = true;
      }
      if (useless) continue;
      std::vector<int> candidate =
          stencil::pair_in_order(tasks, stencil::ranks_in_order(problem.allocation, order));
      const double hops = stencil::average_hops(problem, candidate);
      if (best.empty() || hops < best_hops) {
        best = std::move(candidate);
        best_hops = hops;
      }
    }
  }
  return best;
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_ordered_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-ordered", stencil::Rotation::Apply,
                                                  ordered);
}

}  // namespace tofa
