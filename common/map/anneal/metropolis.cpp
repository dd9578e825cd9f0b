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

  std::vector<double> sample_deltas(double scale) {
    std::vector<double> deltas;
    Proposal proposal;
    const int samples =
        static_cast<int>(std::clamp<std::size_t>(kCalibrationSamplesPerTask * movable_.size(),
                                                 kMinCalibrationSamples, kMaxCalibrationSamples));
    for (int i = 0; i < samples; ++i)
      if (propose(proposal)) deltas.push_back(proposal.delta / scale);
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

ChainReport anneal_stage(PlacementState& state, const SiteNeighbourhood& around,
                         const std::vector<int>& movable, double scale,
                         const ChainSettings& settings, const ChainBudget& budget,
                         RandomStream& random, ProgressReporter& progress) {
  ChainReport report;
  report.energy = state.energy();
  if (movable.empty()) return report;
  if (!(scale > 0)) scale = 1;
  StageChain chain(state, around, movable, settings, random);

  const auto started = std::chrono::steady_clock::now();
  auto seconds_used = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  const std::uint64_t sweep =
      std::max<std::uint64_t>(kMinimumSweep, static_cast<std::uint64_t>(movable.size()));

  double energy = report.energy;
  double best_energy = energy;
  std::vector<int> best_sites = chain.sites_of_movable();
  auto remember_if_best = [&] {
    if (energy < best_energy - 1e-9 * std::max(1.0, std::abs(best_energy))) {
      best_energy = energy;
      best_sites = chain.sites_of_movable();
    }
  };

  Proposal proposal;
  // One sweep at `beta`; returns the share of proposals accepted.
  auto run_sweep = [&](double beta, double& energy_sum) {
    std::uint64_t accepted = 0;
    for (std::uint64_t i = 0; i < sweep; ++i) {
      if (chain.propose(proposal)) {
        const double normalized = proposal.delta / scale;
        if (normalized <= 0 || random.unit() < std::exp(-beta * normalized)) {
          chain.apply(proposal);
          energy += proposal.delta;
          ++accepted;
        }
      }
      energy_sum += energy;
    }
    report.proposals += sweep;
    report.accepted += accepted;
    return double(accepted) / sweep;
  };

  // The seed asks for 10-20% acceptance at the first beta, in equilibrium
  // rather than in the starting map: estimate beta from sampled changes,
  // then heat or cool until a sweep at that beta accepts that share.
  BetaRange range = calibrate_betas(chain.sample_deltas(scale), settings.initial_acceptance,
                                    settings.final_acceptance);
  for (int round = 0; round < kWarmUpRounds; ++round) {
    if (budget.seconds > 0 && seconds_used() >= budget.seconds) break;
    double ignored = 0;
    run_sweep(range.first, ignored);
    const double accepted = run_sweep(range.first, ignored);
    if (accepted < settings.initial_acceptance * 2 / 3)
      range.first /= 1.5;
    else if (accepted > settings.initial_acceptance * 4 / 3)
      range.first *= 1.5;
    else
      break;
  }
  range.first = std::min(range.first, range.last / 10);
  energy = state.energy();
  std::vector<double> ladder = beta_ladder(range, settings.steps);
  report.first_beta = ladder.front();
  report.last_beta = ladder.back();

  // A lattice-like problem freezes long before the last beta, and the steps
  // after that only spend the budget. Once kFrozenSteps steps in a row accept
  // under kFrozenAcceptance, the cycle ends; while budget is left, the next
  // cycle restarts from the best map on a new ladder between the last beta
  // that still accepted initial_acceptance / 3 and the freezing beta, so
  // that the remaining budget goes where the map still changes.
  for (int cycle = 0; cycle < kMaximumCycles; ++cycle) {
    const int steps = static_cast<int>(ladder.size());
    double lively_beta = ladder.front();
    double frozen_beta = 0;
    int frozen_steps = 0;
    for (int step = 0; step < steps && frozen_beta == 0; ++step) {
      const double beta = ladder[step];
      const std::uint64_t allowance =
          (budget.proposals - std::min(budget.proposals, report.proposals)) /
          static_cast<std::uint64_t>(steps - step);
      const double time_allowance =
          budget.seconds > 0 ? (budget.seconds - seconds_used()) / (steps - step) : 0;
      const double step_started = seconds_used();
      std::uint64_t used = 0;
      std::uint64_t step_accepted = 0;
      double previous_mean = std::numeric_limits<double>::infinity();
      for (int sweeps = 0; used + sweep <= std::max(allowance, sweep); ++sweeps) {
        double energy_sum = 0;
        const double accepted = run_sweep(beta, energy_sum);
        step_accepted += static_cast<std::uint64_t>(std::llround(accepted * sweep));
        used += sweep;
        remember_if_best();
        const double mean = energy_sum / sweep;
        progress.step(step + 1, steps, beta, energy / scale, double(step_accepted) / used);
        // Sweep means are noisy: judge a plateau only after a quarter of the
        // step's share, so that a step cannot end on one unlucky sweep.
        const bool plateau =
            settings.plateau_tolerance >= 0 && sweeps >= 1 && 4 * used >= allowance &&
            mean > previous_mean - settings.plateau_tolerance * std::abs(previous_mean);
        if (plateau) break;
        if (budget.seconds > 0 && seconds_used() - step_started >= time_allowance) break;
        previous_mean = mean;
      }
      energy = state.energy();  // drop rounding drift
      const double acceptance = double(step_accepted) / used;
      if (acceptance >= settings.initial_acceptance / 3) lively_beta = beta;
      frozen_steps = acceptance < kFrozenAcceptance ? frozen_steps + 1 : 0;
      if (frozen_steps == kFrozenSteps) frozen_beta = beta;
      if (budget.seconds > 0 && seconds_used() >= budget.seconds) break;
    }
    const bool budget_left =
        budget.seconds > 0 ? seconds_used() < budget.seconds * (1 - kCycleReserve)
                           : report.proposals < budget.proposals * (1 - kCycleReserve);
    if (frozen_beta == 0 || !budget_left || !(lively_beta < frozen_beta)) break;
    remember_if_best();
    chain.restore(best_sites);
    energy = state.energy();
    ladder = beta_ladder({lively_beta, frozen_beta}, settings.steps);
  }

  // Zero temperature: take every change that does not raise F, then
  // every local change that lowers it.
  const bool timed = budget.seconds > 0;
  for (int sweeps = 0; sweeps < kQuenchSweeps; ++sweeps) {
    if (timed && seconds_used() >= budget.seconds) break;
    const double before = energy;
    for (std::uint64_t i = 0; i < sweep; ++i) {
      if (chain.propose(proposal) && proposal.delta <= 0) {
        chain.apply(proposal);
        energy += proposal.delta;
        ++report.accepted;
      }
    }
    report.proposals += sweep;
    remember_if_best();
    if (!(energy < before - 1e-12 * std::abs(before))) break;
  }
  energy = state.energy();
  if (energy > best_energy + 1e-9 * std::max(1.0, std::abs(best_energy))) {
    chain.restore(best_sites);
    energy = state.energy();
  }
  const Deadline deadline = deadline_after(started, budget.seconds);
  report.proposals +=
      local_descent(state, around, movable, settings.keep_lowest, kDescentPasses, deadline);
  report.energy = state.energy();
  return report;
}

}  // namespace anneal
}  // namespace tofa
