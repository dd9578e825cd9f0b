#include "bisection.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <numeric>

#include "map/scotch/scotch_target.hpp"

namespace tofa {
namespace anneal {
namespace {

constexpr double kMaxEdgeWeight = 1 << 16;
constexpr double kBalanceRatio = 0.05;

class Bisector {
 public:
  Bisector(const CommGraph& graph, double limit, SCOTCH_Num seed, const scotch::Lock& held)
      : graph_(graph), limit_(limit), seed_(seed), held_(held), mapped_(graph.task_count(), 0),
        local_(graph.task_count(), -1), mark_(graph.task_count(), 0) {
    for (double bytes : graph.bytes()) heaviest_ = std::max(heaviest_, bytes);
  }

  void partition(const std::vector<int>& subset) {
    std::vector<int> first, second;
    if (subset.size() >= 2) split(subset, first, second);
    if (first.empty() || second.empty() || ratio(first) < limit_ || ratio(second) < limit_) {
      for (int task : subset) mapped_[task] = 1;
      stages_.push_back(subset);
      return;
    }
    if (traffic_to_mapped(first) > traffic_to_mapped(second)) {
      partition(first);
      partition(second);
    } else {
      partition(second);
      partition(first);
    }
  }

  std::vector<std::vector<int>> take_stages() { return std::move(stages_); }

 private:
  double ratio(const std::vector<int>& subset) {
    for (int task : subset) mark_[task] = 1;
    const double l = connectivity_ratio(graph_, subset, mark_);
    for (int task : subset) mark_[task] = 0;
    return l;
  }

  double traffic_to_mapped(const std::vector<int>& subset) const {
    double sum = 0;
    for (int task : subset)
      for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k)
        if (mapped_[graph_.adjacency()[k]]) sum += graph_.bytes()[k];
    return sum;
  }

  /// Scotch bisection of the subgraph induced by `subset`.
  void split(const std::vector<int>& subset, std::vector<int>& first, std::vector<int>& second) {
    for (std::size_t i = 0; i < subset.size(); ++i) local_[subset[i]] = static_cast<int>(i);
    const double scale = heaviest_ > 0 ? kMaxEdgeWeight / heaviest_ : 0;
    std::vector<SCOTCH_Num> offsets{0}, adjacency, weights;
    for (int task : subset) {
      for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
        const int partner = local_[graph_.adjacency()[k]];
        if (partner < 0 || !(graph_.bytes()[k] > 0)) continue;
        adjacency.push_back(partner);
        weights.push_back(static_cast<SCOTCH_Num>(
            std::clamp(std::llround(graph_.bytes()[k] * scale), 1LL, 1LL << 16)));
      }
      offsets.push_back(static_cast<SCOTCH_Num>(adjacency.size()));
    }
    for (int task : subset) local_[task] = -1;

    scotch::Graph part_graph(std::move(offsets), std::move(adjacency), std::move(weights));
    SCOTCH_Strat* strategy = scotch::map_strategy(SCOTCH_STRATBALANCE, 2, kBalanceRatio, held_);
    scotch::SingleThreadGraph bound(part_graph, seed_);
    std::vector<SCOTCH_Num> parts(subset.size());
    scotch::check(SCOTCH_graphPart(bound.get(), 2, strategy, parts.data()),
                  "SCOTCH_graphPart");
    for (std::size_t i = 0; i < subset.size(); ++i)
      (parts[i] == 0 ? first : second).push_back(subset[i]);
  }

  const CommGraph& graph_;
  double limit_;
  SCOTCH_Num seed_;
  const scotch::Lock& held_;
  double heaviest_ = 0;
  std::vector<char> mapped_;
  std::vector<int> local_;
  std::vector<char> mark_;
  std::vector<std::vector<int>> stages_;
};

}  // namespace

double connectivity_ratio(const CommGraph& graph, const std::vector<int>& subset,
                          const std::vector<char>& in_subset) {
  double inside = 0;
  double total = 0;
  for (int task : subset) {
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      total += graph.bytes()[k];
      if (in_subset[graph.adjacency()[k]]) inside += graph.bytes()[k];
    }
  }
  return total > 0 ? inside / total : 1.0;
}

std::vector<std::vector<int>> bisection_stages(const CommGraph& graph, double limit,
                                               std::uint64_t seed) {
  std::vector<int> everyone(graph.task_count());
  std::iota(everyone.begin(), everyone.end(), 0);
  if (limit <= 0 || graph.task_count() < 2) return {everyone};
  scotch::Lock held = scotch::lock();
  Bisector bisector(graph, limit, static_cast<SCOTCH_Num>(seed % INT_MAX), held);
  bisector.partition(everyone);
  return bisector.take_stages();
}

}  // namespace anneal
}  // namespace tofa
