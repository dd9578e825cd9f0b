#include "metropolis.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "base/error.hpp"
#include "descent.hpp"
#include "schedule.hpp"

namespace tofa {
namespace anneal {
namespace {

constexpr int kMinimumSweep = 64;        // proposals per sweep for tiny stages
// Proposals sampled to calibrate the first beta: per movable task, within
// bounds (a few tasks have few distinct moves; 4096 cost small jobs ~1 ms).
// Tuned on: bench/quality.sh's md-pppm-16 (tuning set), timed (da1f9a8).
constexpr int kCalibrationSamplesPerTask = 64;
constexpr int kMinCalibrationSamples = 512;
constexpr int kMaxCalibrationSamples = 4096;
// Under a time budget, sampling stops (past kMinCalibrationSamples) once it
// has used this share: on a 64-task halo of 29 partners a task, 4096 samples
// took 1.1-1.8 ms, all of a short chain's budget (bench/quality.sh (a)
// halo-4x4x4: auto then ran past issue 38's bound).
// Not tuned: a fifth leaves the chain most of its time.
constexpr double kCalibrationShare = 0.2;
constexpr int kSamplesPerClockCheck = 64;
constexpr int kQuenchSweeps = 20;
constexpr int kDescentPasses = 100;
constexpr int kWarmUpRounds = 30;
constexpr double kFrozenAcceptance = 0.005;
constexpr int kFrozenSteps = 3;
constexpr int kMaximumCycles = 8;
constexpr double kCycleReserve = 0.1;  // no new cycle for the last 10% of the budget

/// A candidate change: `task` goes to `site`, and `other` (when >= 0) comes
/// back to the task's site.
struct Proposal {
  int task = -1;
  int other = -1;
  int site = -1;
  double delta = 0;
};

class StageChain {
 public:
  StageChain(PlacementState& state, const SiteNeighbourhood& around,
             const std::vector<int>& movable, const ChainSettings& settings, RandomStream& random)
      : state_(state), around_(around), movable_(movable), settings_(settings), random_(random),
        is_movable_(state.task_count(), 0), is_active_(state.site_count(), 0) {
    for (int task : movable) is_movable_[task] = 1;
    for (int site = 0; site < state.site_count(); ++site)
      if (state.load(site) < state.bounds().highest) add_active(site);
    for (int task : movable) add_active(state.site_of(task));
  }

  /// False when the drawn change is impossible (no room, same site, ...).
  bool propose(Proposal& proposal) {
    const int task = movable_[random_.below(static_cast<std::uint32_t>(movable_.size()))];
    const int from = state_.site_of(task);
    const int to = draw_site(task);
    if (to < 0 || to == from || !is_active_[to]) return false;

    int swappable = 0;
    for (int other : state_.tasks_on(to)) swappable += is_movable_[other];
    const bool can_move = state_.can_move(from, to, settings_.keep_lowest);
    const int options = swappable + (can_move ? 1 : 0);
    if (options == 0) return false;
    int pick = static_cast<int>(random_.below(static_cast<std::uint32_t>(options)));
    proposal.task = task;
    proposal.site = to;
    proposal.other = -1;
    for (int other : state_.tasks_on(to)) {
      if (!is_movable_[other]) continue;
      if (pick-- == 0) {
        proposal.other = other;
        break;
      }
    }
    proposal.delta = proposal.other >= 0 ? state_.swap_delta(task, proposal.other)
                                         : state_.move_delta(task, to);
    return true;
  }

  void apply(const Proposal& proposal) {
    if (proposal.other >= 0)
      state_.swap(proposal.task, proposal.other);
    else
      state_.move(proposal.task, proposal.site);
  }

  /// Sampled changes of F over `scale`; past kMinCalibrationSamples, none
  /// after `stop`.
  std::vector<double> sample_deltas(double scale, Deadline stop) {
    std::vector<double> deltas;
    Proposal proposal;
    const int samples =
        static_cast<int>(std::clamp<std::size_t>(kCalibrationSamplesPerTask * movable_.size(),
                                                 kMinCalibrationSamples, kMaxCalibrationSamples));
    for (int i = 0; i < samples; ++i) {
      if (i >= kMinCalibrationSamples && i % kSamplesPerClockCheck == 0 &&
          stop != Deadline::max() && std::chrono::steady_clock::now() >= stop)
        break;
      if (propose(proposal)) deltas.push_back(proposal.delta / scale);
    }
    return deltas;
  }

  std::vector<int> sites_of_movable() const {
    std::vector<int> sites;
    sites.reserve(movable_.size());
    for (int task : movable_) sites.push_back(state_.site_of(task));
    return sites;
  }

  void restore(const std::vector<int>& sites) {
    for (int task : movable_) state_.unplace(task);
    for (std::size_t i = 0; i < movable_.size(); ++i) state_.place(movable_[i], sites[i]);
  }

 private:
  void add_active(int site) {
    if (!is_active_[site]) {
      is_active_[site] = 1;
      active_.push_back(site);
    }
  }

  int draw_uniform_site() {
    return active_[random_.below(static_cast<std::uint32_t>(active_.size()))];
  }

  /// A site at or next to a random placed partner of `task`.
  int draw_local_site(int task) {
    const CommGraph& graph = state_.graph();
    const auto begin = graph.offsets()[task];
    const auto degree = graph.offsets()[task + 1] - begin;
    if (degree == 0) return draw_uniform_site();
    const int partner =
        graph.adjacency()[begin + random_.below(static_cast<std::uint32_t>(degree))];
    const int centre = state_.site_of(partner);
    if (centre < 0) return draw_uniform_site();
    const std::vector<int>& box = around_.around(centre);
    const std::uint32_t pick = random_.below(static_cast<std::uint32_t>(box.size() + 1));
    return pick == box.size() ? centre : box[pick];
  }

  int draw_site(int task) {
    switch (settings_.proposal) {
      case ProposalKind::Uniform:
        return draw_uniform_site();
      case ProposalKind::Local:
        return draw_local_site(task);
      case ProposalKind::Mixed:
        return (random_.next() >> 63) ? draw_uniform_site() : draw_local_site(task);
    }
    return draw_uniform_site();
  }

  PlacementState& state_;
  const SiteNeighbourhood& around_;
  const std::vector<int>& movable_;
  const ChainSettings& settings_;
  RandomStream& random_;
  std::vector<char> is_movable_;
  std::vector<char> is_active_;
  std::vector<int> active_;
};

}  // namespace

ProposalKind parse_proposal_kind(const std::string& text) {
  if (text == "uniform") return ProposalKind::Uniform;
  if (text == "local") return ProposalKind::Local;
  if (text == "mixed") return ProposalKind::Mixed;
  throw Error("unknown proposal '" + text + "': expected uniform, local or mixed");
}

namespace {

// One annealing stage as it runs: the chain, its energy, the best map seen
// and the budget spent. run() warms up, anneals on the ladder (in cycles),
// quenches and descends.
class StageRun {
 public:
  StageRun(PlacementState& state, const SiteNeighbourhood& around,
           const std::vector<int>& movable, double scale, const ChainSettings& settings,
           const ChainBudget& budget, RandomStream& random, ProgressReporter& progress)
      : state_(state), around_(around), movable_(movable), scale_(scale), settings_(settings),
        budget_(budget), random_(random), progress_(progress),
        chain_(state, around, movable, settings, random),
        started_(std::chrono::steady_clock::now()),
        sweep_(std::max<std::uint64_t>(kMinimumSweep,
                                       static_cast<std::uint64_t>(movable.size()))),
        energy_(state.energy()), best_energy_(energy_),
        best_sites_(chain_.sites_of_movable()) {
    report_.energy = energy_;
  }

  ChainReport run() {
    std::vector<double> ladder = beta_ladder(warm_up(), settings_.steps);
    report_.first_beta = ladder.front();
    report_.last_beta = ladder.back();
    anneal(std::move(ladder));
    quench();
    const Deadline deadline = deadline_after(started_, budget_.seconds);
    report_.proposals += local_descent(state_, around_, movable_, settings_.keep_lowest,
                                       kDescentPasses, deadline);
    report_.energy = state_.energy();
    return report_;
  }

 private:
  double seconds_used() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  bool out_of_time() const { return budget_.seconds > 0 && seconds_used() >= budget_.seconds; }

  void remember_if_best() {
    if (energy_ < best_energy_ - 1e-9 * std::max(1.0, std::abs(best_energy_))) {
      best_energy_ = energy_;
      best_sites_ = chain_.sites_of_movable();
    }
  }

  // One sweep at `beta`; returns the share of proposals accepted.
  double sweep_at(double beta, double& energy_sum) {
    std::uint64_t accepted = 0;
    for (std::uint64_t i = 0; i < sweep_; ++i) {
      if (chain_.propose(proposal_)) {
        const double normalized = proposal_.delta / scale_;
        if (normalized <= 0 || random_.unit() < std::exp(-beta * normalized)) {
          chain_.apply(proposal_);
          energy_ += proposal_.delta;
          ++accepted;
        }
      }
      energy_sum += energy_;
    }
    report_.proposals += sweep_;
    report_.accepted += accepted;
    return double(accepted) / sweep_;
  }

  // The seed asks for 10-20% acceptance at the first beta, in equilibrium
  // rather than in the starting map: estimate beta from sampled changes,
  // then heat or cool until a sweep at that beta accepts that share.
  BetaRange warm_up() {
    const Deadline stop = deadline_after(started_, kCalibrationShare * budget_.seconds);
    BetaRange range = calibrate_betas(chain_.sample_deltas(scale_, stop), settings_.initial_acceptance,
                                      settings_.final_acceptance);
    for (int round = 0; round < kWarmUpRounds; ++round) {
      if (out_of_time()) break;
      double ignored = 0;
      sweep_at(range.first, ignored);
      const double accepted = sweep_at(range.first, ignored);
      if (accepted < settings_.initial_acceptance * 2 / 3)
        range.first /= 1.5;
      else if (accepted > settings_.initial_acceptance * 4 / 3)
        range.first *= 1.5;
      else
        break;
    }
    range.first = std::min(range.first, range.last / 10);
    energy_ = state_.energy();
    return range;
  }

  // A lattice-like problem freezes long before the last beta, and the steps
  // after that only spend the budget. Once kFrozenSteps steps in a row accept
  // under kFrozenAcceptance, the cycle ends; while budget is left, the next
  // cycle restarts from the best map on a new ladder between the last beta
  // that still accepted initial_acceptance / 3 and the freezing beta, so
  // that the remaining budget goes where the map still changes.
  void anneal(std::vector<double> ladder) {
    for (int cycle = 0; cycle < kMaximumCycles; ++cycle) {
      const int steps = static_cast<int>(ladder.size());
      double lively_beta = ladder.front();
      double frozen_beta = 0;
      int frozen_steps = 0;
      for (int step = 0; step < steps && frozen_beta == 0; ++step) {
        const double acceptance = anneal_step(ladder[step], step, steps);
        if (acceptance >= settings_.initial_acceptance / 3) lively_beta = ladder[step];
        frozen_steps = acceptance < kFrozenAcceptance ? frozen_steps + 1 : 0;
        if (frozen_steps == kFrozenSteps) frozen_beta = ladder[step];
        if (out_of_time()) break;
      }
      const bool budget_left =
          budget_.seconds > 0 ? seconds_used() < budget_.seconds * (1 - kCycleReserve)
                              : report_.proposals < budget_.proposals * (1 - kCycleReserve);
      if (frozen_beta == 0 || !budget_left || !(lively_beta < frozen_beta)) break;
      remember_if_best();
      chain_.restore(best_sites_);
      energy_ = state_.energy();
      ladder = beta_ladder({lively_beta, frozen_beta}, settings_.steps);
    }
  }

  // Step `step` of `steps` at `beta`: sweeps until its share of the budget
  // is spent or the energy reaches a plateau. Returns its acceptance.
  double anneal_step(double beta, int step, int steps) {
    const std::uint64_t allowance =
        (budget_.proposals - std::min(budget_.proposals, report_.proposals)) /
        static_cast<std::uint64_t>(steps - step);
    const double time_allowance =
        budget_.seconds > 0 ? (budget_.seconds - seconds_used()) / (steps - step) : 0;
    const double step_started = seconds_used();
    std::uint64_t used = 0;
    std::uint64_t step_accepted = 0;
    double previous_mean = std::numeric_limits<double>::infinity();
    for (int sweeps = 0; used + sweep_ <= std::max(allowance, sweep_); ++sweeps) {
      double energy_sum = 0;
      const double accepted = sweep_at(beta, energy_sum);
      step_accepted += static_cast<std::uint64_t>(std::llround(accepted * sweep_));
      used += sweep_;
      remember_if_best();
      const double mean = energy_sum / sweep_;
      progress_.step(step + 1, steps, beta, energy_ / scale_, double(step_accepted) / used);
      // Sweep means are noisy: judge a plateau only after a quarter of the
      // step's share, so that a step cannot end on one unlucky sweep.
      const bool plateau =
          settings_.plateau_tolerance >= 0 && sweeps >= 1 && 4 * used >= allowance &&
          mean > previous_mean - settings_.plateau_tolerance * std::abs(previous_mean);
      if (plateau) break;
      if (budget_.seconds > 0 && seconds_used() - step_started >= time_allowance) break;
      previous_mean = mean;
    }
    energy_ = state_.energy();  // drop rounding drift
    return double(step_accepted) / used;
  }

  // Zero temperature: take every change that does not raise F, then keep
  // the best map seen.
  void quench() {
    for (int sweeps = 0; sweeps < kQuenchSweeps; ++sweeps) {
      if (out_of_time()) break;
      const double before = energy_;
      for (std::uint64_t i = 0; i < sweep_; ++i) {
        if (chain_.propose(proposal_) && proposal_.delta <= 0) {
          chain_.apply(proposal_);
          energy_ += proposal_.delta;
          ++report_.accepted;
        }
      }
      report_.proposals += sweep_;
      remember_if_best();
      if (!(energy_ < before - 1e-12 * std::abs(before))) break;
    }
    energy_ = state_.energy();
    if (energy_ > best_energy_ + 1e-9 * std::max(1.0, std::abs(best_energy_))) {
      chain_.restore(best_sites_);
      energy_ = state_.energy();
    }
  }

  PlacementState& state_;
  const SiteNeighbourhood& around_;
  const std::vector<int>& movable_;
  const double scale_;
  const ChainSettings& settings_;
  const ChainBudget& budget_;
  RandomStream& random_;
  ProgressReporter& progress_;
  StageChain chain_;
  const std::chrono::steady_clock::time_point started_;
  const std::uint64_t sweep_;
  ChainReport report_;
  Proposal proposal_;
  double energy_;
  double best_energy_;
  std::vector<int> best_sites_;
};

}  // namespace

ChainReport anneal_stage(PlacementState& state, const SiteNeighbourhood& around,
                         const std::vector<int>& movable, double scale,
                         const ChainSettings& settings, const ChainBudget& budget,
                         RandomStream& random, ProgressReporter& progress) {
  if (movable.empty()) {
    ChainReport report;
    report.energy = state.energy();
    return report;
  }
  return StageRun(state, around, movable, scale > 0 ? scale : 1, settings, budget, random,
                  progress)
      .run();
}

}  // namespace anneal
}  // namespace tofa
