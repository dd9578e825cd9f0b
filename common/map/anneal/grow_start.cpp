// The "grow" start: the seed's refined heuristic (the task with the most
// traffic to placed tasks goes next) with one step of look-ahead, so that a
// lattice-like graph grows as a crystal instead of a tangle.
//
// Placing a task next to its placed partners fixes nothing yet about the
// orientation of the neighbourhood: on a stencil, the first partners of a
// task may go to any of its free torus neighbours at the same cost, and a
// wrong choice (two partners on opposite sides that share a common partner)
// only costs later. The look-ahead scores each candidate site with the best
// cost each unplaced partner could still reach next to it, which exposes
// that choice immediately (and prefers sites with free room around them).
//
// Growth is tried on all edges and on the heavy edges alone (see
// growth_thresholds), and again with ties broken at random; the start with
// the lowest F over all edges is kept. Past the deadline the attempt under
// way hurries: each remaining task goes to the site nearest its heaviest
// placed partners by direct cost alone (one attempt on a dense 1024-task
// graph took twice auto's budget).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <queue>
#include <tuple>

#include "initial_map.hpp"

namespace tofa {
namespace anneal {
namespace {

// Unplaced partners looked ahead for, heaviest first: bounds the work on
// hubs of power-law graphs.
constexpr int kLookAheadPartners = 8;
// Up to this many distinct edge weights, each is tried as a growth threshold.
constexpr std::size_t kDistinctWeightLevels = 4;
// Past the deadline, the sites at and next to this many of a task's heaviest
// placed partners are its only candidates.
constexpr std::size_t kHurriedAnchors = 2;
// Tasks placed between two looks at the clock.
constexpr int kTasksPerClockCheck = 8;

class Grower {
 public:
  /// `stage` lightest first (lightest_first). Only edges of at least
  /// `min_bytes` guide the growth. With `random`, ties between tasks and
  /// between sites are broken at random instead of by id and candidate order.
  Grower(PlacementState& state, const SiteNeighbourhood& around, const std::vector<int>& stage,
         double min_bytes, RandomStream* random, Deadline deadline)
      : state_(state), around_(around), graph_(state.graph()), min_bytes_(min_bytes),
        random_(random), deadline_(deadline), by_volume_(stage), tie_rank_(graph_.task_count()),
        in_stage_(graph_.task_count(), 0), pull_(graph_.task_count(), 0.0),
        placed_partners_(graph_.task_count(), 0),
        partner_mark_(graph_.task_count(), 0), site_mark_(state.site_count(), -1),
        reach_stamp_(static_cast<std::size_t>(kLookAheadPartners) * state.site_count(), -1),
        reach_cost_(reach_stamp_.size()) {
    for (int task = 0; task < graph_.task_count(); ++task)
      tie_rank_[task] = random_ ? static_cast<int>(random_->below(1u << 30)) : -task;
    for (int task : stage) in_stage_[task] = 1;
    for (int task = 0; task < graph_.task_count(); ++task)
      if (state_.site_of(task) >= 0) note_placed(task);
  }

  void run() {
    int placed = 0;
    for (int task = next_task(); task >= 0; task = next_task()) {
      if (!hurry_ && deadline_ != Deadline::max() && ++placed % kTasksPerClockCheck == 0)
        hurry_ = std::chrono::steady_clock::now() >= deadline_;
      const int site = hurry_ ? choose_site_hurried(task) : choose_site(task);
      state_.place(task, site);
      previous_site_ = site;
      note_placed(task);
    }
  }

 private:
  /// Edges below the threshold are left out of the growth (not of F).
  bool light(std::size_t k) const { return graph_.bytes()[k] < min_bytes_; }

  void note_placed(int task) {
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (light(k) || !in_stage_[partner] || state_.site_of(partner) >= 0) continue;
      pull_[partner] += graph_.bytes()[k];
      ++placed_partners_[partner];
      frontier_.emplace(pull_[partner], placed_partners_[partner], tie_rank_[partner], partner);
    }
  }

  /// The unplaced stage task with the most traffic to placed tasks (more
  /// placed partners, then lower id or at random, on ties); the lightest
  /// unplaced task when none has any. -1 when the stage is placed.
  int next_task() {
    while (!frontier_.empty()) {
      const auto [pull, count, rank, task] = frontier_.top();
      frontier_.pop();
      if (state_.site_of(task) < 0 && pull == pull_[task] && count == placed_partners_[task])
        return task;
    }
    while (cursor_ < by_volume_.size()) {
      const int task = by_volume_[cursor_++];
      if (state_.site_of(task) < 0) return task;
    }
    return -1;
  }

  /// Weighted distance from `site` to the placed partners of `task`, plus
  /// `extra_bytes` to a task at `extra_site` (-1: none).
  double cost_at(int task, int site, int extra_site, double extra_bytes) const {
    const DistanceTable& sites = state_.sites();
    double cost = extra_site >= 0 ? extra_bytes * sites.distance(site, extra_site) : 0;
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int there = state_.site_of(graph_.adjacency()[k]);
      if (there >= 0 && !light(k)) cost += graph_.bytes()[k] * sites.distance(site, there);
    }
    return cost;
  }

  /// cost_at(partner, site, -1, 0) for the `slot`-th look-ahead partner,
  /// computed once per choice of a site: neighbouring candidates share most
  /// of the sites their partners could reach (on a dense graph the look-ahead
  /// was ~90% of the grow start).
  double partner_cost(int slot, int site) {
    const std::size_t at = static_cast<std::size_t>(slot) * state_.site_count() + site;
    if (reach_stamp_[at] != mark_) {
      reach_stamp_[at] = mark_;
      const DistanceTable& sites = state_.sites();
      double cost = 0;
      for (const auto& [there, bytes] : placed_of_partner_[slot])
        cost += bytes * sites.distance(site, there);
      reach_cost_[at] = cost;
    }
    return reach_cost_[at];
  }

  /// The lowest cost the `slot`-th look-ahead partner could reach at `site`
  /// or one of its torus neighbours once the task being placed sits on `site`.
  double best_reachable(int slot, double bytes, int site) {
    const DistanceTable& sites = state_.sites();
    double best = std::numeric_limits<double>::infinity();
    // `site` itself only when it keeps room after the task arrives.
    if (state_.load(site) + 2 <= state_.bounds().highest) best = partner_cost(slot, site);
    for (int next : around_.adjacent(site))
      if (state_.can_take(next))
        best = std::min(best, partner_cost(slot, next) + bytes * sites.distance(next, site));
    // Boxed in: the partner will land at least two hops away.
    return std::isfinite(best) ? best : partner_cost(slot, site) + 2 * bytes;
  }

  double look_ahead(int site) {
    double total = 0;
    for (std::size_t slot = 0; slot < unplaced_partners_.size(); ++slot)
      total += best_reachable(static_cast<int>(slot), -unplaced_partners_[slot].first, site);
    return total;
  }

  void collect_unplaced_partners(int task) {
    unplaced_partners_.clear();
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (!light(k) && in_stage_[partner] && state_.site_of(partner) < 0 && partner != task)
        unplaced_partners_.emplace_back(-graph_.bytes()[k], partner);
    }
    std::sort(unplaced_partners_.begin(), unplaced_partners_.end());
    if (unplaced_partners_.size() > kLookAheadPartners)
      unplaced_partners_.resize(kLookAheadPartners);
    // Their placed partners' sites and bytes, in edge order (cost_at's sum).
    for (std::size_t slot = 0; slot < unplaced_partners_.size(); ++slot) {
      const int partner = unplaced_partners_[slot].second;
      auto& placed = placed_of_partner_[slot];
      placed.clear();
      for (auto k = graph_.offsets()[partner]; k < graph_.offsets()[partner + 1]; ++k) {
        const int there = state_.site_of(graph_.adjacency()[k]);
        if (there >= 0 && !light(k)) placed.emplace_back(there, graph_.bytes()[k]);
      }
    }
  }

  /// Candidates: the sites of the placed partners and their torus
  /// neighbours, with room. The best by direct cost plus look-ahead, then
  /// nearer the heaviest placed partner, then with fewer strangers around.
  int choose_site(int task) {
    int anchor = -1;
    double heaviest = -1;
    candidates_.clear();
    ++mark_;
    auto add = [&](int site) {
      if (site_mark_[site] == mark_ || !state_.can_take(site)) return;
      site_mark_[site] = mark_;
      candidates_.push_back(site);
    };
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int there = state_.site_of(graph_.adjacency()[k]);
      if (there < 0 || light(k)) continue;
      if (graph_.bytes()[k] > heaviest) {
        heaviest = graph_.bytes()[k];
        anchor = there;
      }
      add(there);
      for (int next : around_.adjacent(there)) add(next);
    }
    if (candidates_.empty())
      return nearest_with_room(state_, around_, anchor >= 0 ? anchor : previous_site_);

    collect_unplaced_partners(task);
    ++partner_stamp_;
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k)
      if (!light(k)) partner_mark_[graph_.adjacency()[k]] = partner_stamp_;
    int best = -1;
    std::tuple<double, double, int> best_key;
    std::uint32_t ties = 0;
    for (int site : candidates_) {
      const double score = cost_at(task, site, -1, 0) + look_ahead(site);
      // Rounded, so that sums of the same terms in another order tie.
      const double rounded = std::nearbyint(score * 1e6) / 1e6;
      const std::tuple<double, double, int> key{rounded, state_.sites().distance(site, anchor),
                                                strangers_next_to(site)};
      if (best < 0 || key < best_key) {
        best = site;
        best_key = key;
        ties = 1;
      } else if (key == best_key && random_ && random_->below(++ties) == 0) {
        best = site;
      }
    }
    return best;
  }

  /// choose_site without look-ahead, among the sites at and next to the
  /// task's kHurriedAnchors heaviest placed partners.
  int choose_site_hurried(int task) {
    anchors_.clear();
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int there = state_.site_of(graph_.adjacency()[k]);
      if (there >= 0 && !light(k)) anchors_.emplace_back(graph_.bytes()[k], there);
    }
    if (anchors_.empty()) return nearest_with_room(state_, around_, previous_site_);
    const std::size_t kept = std::min(kHurriedAnchors, anchors_.size());
    std::partial_sort(anchors_.begin(), anchors_.begin() + kept, anchors_.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
    int best = -1;
    double best_cost = std::numeric_limits<double>::infinity();
    ++mark_;
    auto consider = [&](int site) {
      if (site_mark_[site] == mark_ || !state_.can_take(site)) return;
      site_mark_[site] = mark_;
      const double cost = cost_at(task, site, -1, 0);
      if (cost < best_cost) {
        best_cost = cost;
        best = site;
      }
    };
    for (std::size_t i = 0; i < kept; ++i) {
      consider(anchors_[i].second);
      for (int next : around_.adjacent(anchors_[i].second)) consider(next);
    }
    return best >= 0 ? best : nearest_with_room(state_, around_, anchors_.front().second);
  }

  /// Placed tasks on the torus neighbours of `site` that do not talk to the
  /// task being placed (marked in partner_mark_). On a lattice-like graph
  /// such a site belongs to some other task's neighbourhood: where costs tie
  /// (a straight line and a corner are both two hops), it breaks the tie.
  int strangers_next_to(int site) const {
    int strangers = 0;
    for (int next : around_.adjacent(site))
      for (int other : state_.tasks_on(next)) strangers += partner_mark_[other] != partner_stamp_;
    return strangers;
  }

  PlacementState& state_;
  const SiteNeighbourhood& around_;
  const CommGraph& graph_;
  double min_bytes_;
  RandomStream* random_;
  Deadline deadline_;
  bool hurry_ = false;
  const std::vector<int>& by_volume_;
  std::vector<int> tie_rank_;
  std::vector<char> in_stage_;
  std::vector<double> pull_;
  std::vector<int> placed_partners_;
  // (pull, placed partners, tie rank, task)
  std::priority_queue<std::tuple<double, int, int, int>> frontier_;
  std::size_t cursor_ = 0;
  int previous_site_ = -1;
  std::vector<int> partner_mark_;
  int partner_stamp_ = 0;
  std::vector<int> site_mark_;
  int mark_ = 0;
  std::vector<int> candidates_;
  std::vector<std::pair<double, int>> anchors_;  // (bytes, site) of placed partners
  std::vector<std::pair<double, int>> unplaced_partners_;  // (-bytes, partner)
  // partner_cost's memo, per look-ahead partner and site, valid for mark_.
  std::vector<int> reach_stamp_;
  std::vector<double> reach_cost_;
  // Per look-ahead partner: (site, bytes) of its placed partners.
  std::vector<std::pair<int, double>> placed_of_partner_[kLookAheadPartners];
};

/// The edge weights to grow on: all edges (0), and, when the stage's edges
/// carry a few distinct weights, each weight above the lightest; otherwise
/// the heaviest half and fifth. Growing on the heavy edges alone first lays
/// out the backbone (Cubic 2's nearest neighbours form Cubic 1, which grows
/// exactly, and the half packets then land two hops away in straight lines).
std::vector<double> growth_thresholds(const CommGraph& graph, const std::vector<int>& stage) {
  std::vector<double> weights;
  for (int task : stage)
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k)
      weights.push_back(graph.bytes()[k]);
  std::vector<double> thresholds{0};
  if (weights.empty()) return thresholds;
  std::sort(weights.begin(), weights.end());
  std::vector<double> distinct = weights;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() <= kDistinctWeightLevels) {
    thresholds.insert(thresholds.end(), distinct.begin() + 1, distinct.end());
  } else {
    for (double quantile : {0.5, 0.8}) {
      const double weight = weights[static_cast<std::size_t>(quantile * (weights.size() - 1))];
      if (weight > weights.front() && weight != thresholds.back()) thresholds.push_back(weight);
    }
  }
  return thresholds;
}

}  // namespace

void grow_start(PlacementState& state, const SiteNeighbourhood& around,
                const std::vector<int>& stage, int attempts, double good_enough,
                RandomStream& random, Deadline deadline, Deadline retry_deadline) {
  std::vector<int> unplaced;
  for (int task : stage)
    if (state.site_of(task) < 0) unplaced.push_back(task);
  unplaced = lightest_first(state.graph(), unplaced);
  double best_energy = std::numeric_limits<double>::infinity();
  double best_threshold = 0;
  std::vector<int> best_sites;
  auto attempt = [&](double min_bytes, RandomStream* ties) {
    PlacementState trial = state;
    Grower(trial, around, unplaced, min_bytes, ties, deadline).run();
    const double energy = trial.energy();
    if (energy < best_energy) {
      best_energy = energy;
      best_threshold = min_bytes;
      best_sites.clear();
      for (int task : unplaced) best_sites.push_back(trial.site_of(task));
    }
  };
  const auto worth_another = [&] {
    return best_energy > good_enough &&
           (best_sites.empty() || std::chrono::steady_clock::now() < std::min(deadline, retry_deadline));
  };
  const std::vector<double> thresholds = growth_thresholds(state.graph(), unplaced);
  for (double min_bytes : thresholds)
    if (worth_another()) attempt(min_bytes, nullptr);
  for (int k = static_cast<int>(thresholds.size()); k < attempts && worth_another(); ++k)
    attempt(best_threshold, &random);
  for (std::size_t i = 0; i < unplaced.size(); ++i) state.place(unplaced[i], best_sites[i]);
}

}  // namespace anneal
}  // namespace tofa
