// "auto": the strategies that apply to the job, each run on it, and the
// placement with the lowest Equation 1 objective (fault_weighted_hop_bytes:
// bytes times the route cost of R(u,v) and R(v,u)). Slurm's block layout is
// one of them, so auto is never worse than it on that objective. Ties go
// to the lower P(abort).
//
// One exception, the seed's intent: a path through a failing node is to
// cost more than any fault-free path, but Equation 1 weights it by the
// bytes on it, so a few bytes through a failing node can be cheaper than
// extra hops of heavy traffic. A placement with P(abort) = 0 therefore wins
// over every placement with P(abort) > 0 whenever its objective is not
// above the block layout's. When the block layout may abort, it is also
// tried translated around the torus onto fault-free nodes with clear
// routes (translate_clear.hpp: the same hop-bytes). When the fault-free candidates can hold the
// job, greedy-routes is among the heuristics (it often finds such a
// placement in a millisecond), and so are the scheduler's node choice
// (`compact`) and embed and greedy on its box's nodes (a box without a
// failing node keeps their routes clear), and if the best placement found still
// crosses a failing node, a last search from the cheapest (up to
// kClearRoutesMaxPairs tasks x candidates clear_routes first, then descent and
// annealing; above, local descent) runs under a penalty by which
// one link of the lightest edge next to a failing node costs more than the
// whole block layout (route_around_penalty), with kAbortOverrun budgets
// and kAbortOverrunSeconds more while every placement found may abort.
//
// On a machine much larger than the job, every strategy but Slurm's layout
// and the scheduler's node choice (`compact`, both linear in the candidates)
// runs on a window of the candidates (candidate_window.hpp): a compact ball
// of fault-free nodes, a few times the nodes the job needs.
//
// With --param budget=SECONDS (the service passes PlacementBudget, scaled
// to the job), auto returns within 1.2 budgets and 2 ms: the cheap
// heuristics always run (Slurm's layout, embed, greedy up to kGreedyMaxTasks
// tasks; on a window with failing nodes to keep clear of, embed and greedy
// on the clear box only), greedy-routes (as above) when its predicted time fits
// kGreedyRoutesShare of what is left (there, after the clear box and only while
// no placement found keeps its routes clear). Above kAnnealMaxTasks tasks, when Scotch would
// not leave half of the budget, local descent from their best takes that
// half first. Then Scotch (tofa, or tofa-compact when a candidate may fail)
// runs when its predicted time fits what is left, unless the fault-free
// candidates hold a job of up to kAnnealMaxTasks tasks, then on multi-core
// nodes MIMS (Scotch again, on packs) when the time left exceeds what
// Scotch took, then, up to kAnnealMaxTasks tasks, the annealer's grow start
// and annealing with what is left; above, local descent from the best
// placement so far. A step is not started once the budget is spent.
//
// Seeing the other jobs' traffic (InterferenceWeight > 0), the strategies'
// objective counts the surcharge of the loaded links, placements rank (on
// split-duplex links) by their bytes on the links other jobs use, then by
// their busiest link in fair-share time (congestion_descent.hpp), before
// Equation 1, and the time the searches leave goes to a congestion descent
// from the best placement, last but the route-around search.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "candidate_window.hpp"
#include "congestion_descent.hpp"
#include "faults/faults.hpp"
#include "faults/route_faults.hpp"
#include "map/anneal/run.hpp"
#include "metrics/metrics.hpp"
#include "route_repair.hpp"
#include "strategies.hpp"
#include "translate_clear.hpp"

namespace tofa {
namespace {

using Clock = std::chrono::steady_clock;

/// Up to this many tasks the budget goes to annealing, above to local
/// descent (whose passes scale to 65,536 tasks). Within the budget annealing
/// beat descent from the best heuristic at 192 tasks (bench/quality.sh:
/// dt-sh-B 1.79 against 1.89 F/F_min) and at 1024 (bench/scaling.py:
/// 4474 against 4839 hop-bytes); without a budget it takes ~1 s at 1024.
/// Tuned on: bench/quality.sh (b) dt-sh-B and bench/scaling.py geometric-1024 (59205a5).
constexpr int kAnnealMaxTasks = 1024;
/// Below this much budget left, annealing's calibration alone would
/// overrun it: auto then takes the annealer's grow start only (an
/// annealing run of up to 128 tasks costs 0.3-1.1 ms before its first sweep).
/// Tuned on: bench/quality.sh's tuning graphs, md-pppm-16 timed (da1f9a8).
constexpr double kAnnealChainSeconds = 0.001;
/// Scotch's time on this 2-core machine as size^1.73, size being the larger
/// of tasks and candidates (bench/quality.sh, geometric graphs, one task
/// per node: 0.10 s at 4096, 3.8 s at 32,768). Under a budget auto starts
/// it only when this fits the time left; its n^1.73 outgrows the budget's
/// n^0.8, and from a few thousand tasks auto keeps to embed and descent,
/// which beat it on geometric graphs anyway.
/// Fitted on: geometric graphs of 4096 and 32,768 tasks, bench/quality.sh (d) (bb99d82).
double predicted_scotch_seconds(int size) { return 3.8 * std::pow(size / 32768.0, 1.73); }
/// Share of the budget (after the heuristics) for a first local descent
/// from the heuristics' best, when Scotch would take more than that share:
/// at 4096 tasks Scotch alone would take all of it.
/// Tuned on: bench/quality.sh (d) geometric-4096 (b67e3d9).
constexpr double kFirstDescentShare = 0.5;
/// Placements whose bytes on the other jobs' links exceed the fewest found
/// by less than this share of the job's bytes tie on them. Ranked strictly,
/// at 64 tasks on 65,536 nodes embed's 10.8 bytes there beat annealing's
/// 11.1 with 14% more hop-bytes and a 1.7x busier link.
/// Not tuned: bench/at_scale.py and bench/interference.py (both goals still
/// met on split-duplex links) measured at this value only (6246794, where it
/// read 0.05 of a sum that counted each edge twice).
constexpr double kOthersLinksTolerance = 0.1;
/// Share of the budget kept for the route-around search when failing nodes
/// may be avoided (given to the last search before it when the best
/// placement found is clear of them and the cheapest).
/// Not tuned: set without a recorded measurement (fdfe3c3).
constexpr double kRouteAroundShare = 0.15;
/// Budgets the route-around search may take beyond the job's when the
/// fault-free candidates hold the job but every placement found so far may
/// abort: the 0.2 that the bound of issue 38 (1.2 budgets + 2 ms) leaves.
/// At 10 it cleared the routes of 4 more of bench/quality.sh (a)'s 8 tuning
/// jobs, at up to 11 budgets (14c99eb).
constexpr double kAbortOverrun = 0.2;
/// And half of the bound's 2 ms, the rest kept for scoring its placement
/// and returning.
constexpr double kAbortOverrunSeconds = 0.001;
/// Share of PlacementBudget a job of a few tasks still gets: with less, auto
/// kept its first heuristic for a 2x2x2 stencil on 4 two-CPU nodes
/// (torus3d_compare j10: 24 MiB x hops where a 2x2 box gave 16), and its
/// annealing ends early anyway once the map freezes.
/// Tuned on: tests/integration/torus3d_compare.sh job j10 (da1f9a8).
constexpr double kSmallJobBudgetShare = 0.5;
/// Share of the route-around search's time for the local descent that
/// starts it (below kAnnealMaxTasks tasks; above, descent is all of it).
/// Annealing straight from the cheapest placement, whose penalty-sized
/// changes set the temperatures, still crossed a failing node in 2 of 3 runs
/// of powerlaw-128 in bench/quality.sh (a); from a descent's result, in none
/// of 12.
/// Tuned on: bench/quality.sh (a) powerlaw-128, 12 runs (8c35890).
constexpr double kRouteAroundDescentShare = 0.25;

/// Up to this many tasks x candidates, the route-around search starts
/// from clear_routes: its tables cost two routes per node of a task and
/// candidate (~5 ms here). At 1024 tasks on a 2048-node window they took the
/// search's whole time (bench/at_scale.py: 1.28x the best hop-bytes, was 0.84x).
constexpr double kClearRoutesMaxPairs = 1 << 18;

/// The budget of --param budget=SECONDS, 0 for none. Throws Error on a
/// value that is not a positive number.
double budget_seconds(const MappingRequest& request) {
  const auto found = request.parameters.find("budget");
  if (found == request.parameters.end()) return 0;
  std::size_t used = 0;
  double seconds = 0;
  try {
    seconds = std::stod(found->second, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != found->second.size() || !(seconds > 0) || !std::isfinite(seconds))
    throw Error("auto: parameter budget: expected a positive number of seconds, found '" +
                found->second + "'");
  return seconds;
}

bool any_faulty_candidate(const MappingRequest& request) {
  const std::vector<int> candidates = effective_candidates(request);
  return std::any_of(candidates.begin(), candidates.end(),
                     [&](int node) { return outage_of(request, node) > 0; });
}

/// `request` passed check_fits.
bool fault_free_candidates_hold_the_job(const MappingRequest& request) {
  const int slots = effective_slots(request);
  const auto room = [&](int node) {
    return request.outage.empty() || !(request.outage[node] > 0) ? slots : 0;
  };
  long long total = 0;
  if (request.candidate_nodes.empty())
    for (int node = 0; node < request.topology->node_count(); ++node) total += room(node);
  else
    for (int node : request.candidate_nodes) total += room(node);
  return total >= request.graph->task_count();
}

/// The job on the candidate window when the machine is much larger than it.
MappingRequest on_window(const MappingRequest& request) {
  std::vector<int> window = candidate_window(request);
  return window.empty() ? request : with_candidates(request, std::move(window));
}

/// The penalty under which one link of the lightest edge next to a failing
/// node costs more than `whole_cost` (the block layout's objective), so a
/// search under it routes around failing nodes before it saves hops.
double route_around_penalty(const CommGraph& graph, double whole_cost, double penalty) {
  double lightest = std::numeric_limits<double>::infinity();
  for (double bytes : graph.bytes())
    if (bytes > 0) lightest = std::min(lightest, bytes);
  if (!std::isfinite(lightest) || !std::isfinite(whole_cost)) return penalty;
  return std::max(penalty, whole_cost / lightest);
}

/// Up to this many tasks greedy is part of stage 1 (about a millisecond);
/// at 32,768 tasks it took 0.25 s for 6 times Scotch's hop-bytes.
/// Tuned on: bench/quality.sh (d) geometric-32768 (b67e3d9).
constexpr int kGreedyMaxTasks = 1024;

/// Up to this many tasks greedy-routes (O(tasks x candidates)) runs when
/// routes may be kept clear of failing nodes.
/// Not tuned: a bound on its O(tasks x candidates) time (14c99eb).
constexpr int kGreedyRoutesMaxTasks = 4096;
/// Under a budget greedy-routes starts when its predicted time is within
/// this share of what is left: the searches after it need the rest.
/// Not tuned: set with the window (bench/at_scale.sh), no other value measured.
constexpr double kGreedyRoutesShare = 0.25;

/// Stage 1, always run: fast, and Slurm's layout among them.
/// greedy-routes' time on this 2-core machine, at most 120 ns per task and
/// candidate (2 ms for 64 tasks on 256 candidates; 25 ms for 1024 on 2048).
/// Fitted on: bench/quality.sh (a) halo-4x4x4 and bench/at_scale.sh geometric-1024.
double predicted_greedy_routes_seconds(int tasks, std::size_t candidates) {
  return 1.2e-7 * tasks * static_cast<double>(candidates);
}

/// Stage 1 beside Slurm's layout (which runs on the whole request), on the
/// window; greedy-routes follows where it fits.
std::vector<std::string> heuristics(const MappingRequest& request) {
  std::vector<std::string> names{"embed"};
  if (request.graph->task_count() <= kGreedyMaxTasks) names.push_back("greedy");
  if (request.parameters.count("stencil")) names.push_back("stencil-rcb");
  return names;
}

/// Placements with P(abort) = 0 whose objective is not above the block
/// layout's form class 0; lower class, then (seeing other jobs) the fewer
/// bytes on their links (on shared links those of the running flows estimated
/// slowest, by their criticality; within kOthersLinksTolerance of the
/// fewest found in the class, a tie) and the lower busiest link, then lower
/// objective, then lower P(abort) wins.
struct Rank {
  int safe_class = 2;
  double bytes_on_others_links = 0;
  double busiest_link = 0;
  double cost = std::numeric_limits<double>::infinity();
  double abort = 1;
  /// `others` and `o_others`: the bytes on the other jobs' links compared.
  bool before(const Rank& o, double others, double o_others) const {
    if (safe_class != o.safe_class) return safe_class < o.safe_class;
    if (others != o_others) return others < o_others;
    if (busiest_link != o.busiest_link) return busiest_link < o.busiest_link;
    if (cost != o.cost) return cost < o.cost;
    return abort < o.abort;
  }
};

/// The annealer's `search` (annealing or local descent) from `start`, on
/// the fault-free candidates when they hold the job, within `seconds` (0:
/// no limit).
Placement improve_from(const MappingRequest& request, const Placement& start,
                       anneal::Search search, double seconds, double descent_first_share = 0) {
  // The start's nodes are candidates too: a placement on the clear box (on
  // all candidates, not the window) moved onto the window's nearest sites
  // task by task took 80 ms at 4096 tasks, for twice the box's hop-bytes.
  std::vector<int> off_candidates;
  if (!request.candidate_nodes.empty()) {
    std::vector<int> listed = request.candidate_nodes;  // no node-sized table: see candidate_window.cpp
    std::sort(listed.begin(), listed.end());
    for (int node : start)
      if (!std::binary_search(listed.begin(), listed.end(), node)) off_candidates.push_back(node);
    std::sort(off_candidates.begin(), off_candidates.end());
    off_candidates.erase(std::unique(off_candidates.begin(), off_candidates.end()),
                         off_candidates.end());
  }
  MappingRequest on_start;  // a copy (the outages too) only when nodes are added
  if (!off_candidates.empty()) {
    on_start = request;
    on_start.candidate_nodes.insert(on_start.candidate_nodes.end(), off_candidates.begin(),
                                    off_candidates.end());
  }
  const MappingRequest& searched = off_candidates.empty() ? request : on_start;
  anneal::AnnealOptions options = anneal::parse_anneal_options(request.parameters);
  options.start = anneal::StartKind::Given;
  options.given_start = start;
  options.search = search;
  options.descent_first_share = descent_first_share;
  options.balanced_load = false;
  options.progress = anneal::ProgressMode::Never;
  if (seconds > 0) options.budget_seconds = std::max(seconds, 1e-6);
  return anneal::anneal_placement(searched, options).placement;
}

/// One run of auto: the placements found so far and the time left.
class AutoRun {
 public:
  /// `started`: when auto was called (the budget counts its checks too).
  AutoRun(const MappingRequest& request, Clock::time_point started)
      : request_(request),
        job_(on_window(request)),
        budget_(budget_seconds(request)),
        started_(started),
        route_around_(any_faulty(request.outage) &&
                      fault_free_candidates_hold_the_job(request)),
        reserve_(route_around_ ? kRouteAroundShare * budget_ : 0),
        large_(request.graph->task_count() > kAnnealMaxTasks),
        no_outage_(request.outage.empty() ? request.topology->node_count() : 0, 0.0),
        outage_(request.outage.empty() ? no_outage_ : request.outage.values()),
        route_faults_(*request.topology, outage_),
        shared_(request),
        windowed_(job_.candidate_nodes.size() != request.candidate_nodes.size()),
        others_tolerance_(kOthersLinksTolerance * request.graph->total_bytes()) {}

  Placement run() {
    Placement block;
    const double block_abort =
        consider("default-slurm", [&] { return block = make_mapper("default-slurm")->map(request_); });
    // The block layout is often the application's own embedding (LAMMPS
    // numbers its grid for it): moved whole off the failing nodes it keeps
    // its hop-bytes. With 16 failing nodes on 8x8x8, LAMMPS's 64 ranks
    // placed elsewhere ran 1-7% slower in tofa-sim (scripts/sim-results.py).
    if (route_around_ && block_abort > 0 && !large_ && time_left()) {
      Placement moved = translate_clear(request_, block, route_faults_);
      if (!moved.empty()) consider("translated block", [&] { return moved; });
    }
    // Under a budget on a window, with the clear box to come, its embed and
    // greedy stand for the window's: on 64 to 256 tasks at 65,536 nodes the
    // box's were the better (bench/at_scale.py), and annealing needs the time.
    // So does greedy-routes, there only while no placement found keeps its
    // routes clear (at 64 tasks it took 2.6 of 11.5 ms and never won).
    const bool box_heuristics = route_around_ && windowed_ && !large_ && budget_ > 0;
    for (const std::string& name : heuristics(job_))
      if (!box_heuristics || (name != "embed" && name != "greedy")) attempt(name, job_);
    if (!box_heuristics) attempt_greedy_routes();
    if (route_around_ && time_left()) attempt_clear_box();
    if (box_heuristics && best_rank().safe_class != 0) attempt_greedy_routes();
    run_scotch();
    refine();
    // With what the searches leave: a share of the budget kept for it cost
    // annealing the time to match blind auto's hop-bytes on 65,536 nodes
    // (64 tasks: 331 against 229 with 0.3 kept) and kept no more traffic off
    // the running jobs' links (bench/at_scale.py).
    if (!shared_.empty() && !best().empty() && time_left()) {
      const double given = budget_ > 0 ? seconds_left() : 0;
      consider("congestion descent", [&] { return congestion_descent(job_, best(), given); }, given);
    }
    if (route_around_ && !best().empty() &&
        (best_rank().safe_class != 0 || cheapest_cost_ < best_rank().cost))
      search_around_failing_nodes();
    if (best().empty() && request_.graph->task_count() > 0) throw Error(first_error_);
    return best();
  }

 private:
  static double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  double seconds_left() const {
    return budget_ - reserve_ - seconds_since(started_);
  }
  bool time_left() const { return budget_ == 0 || seconds_left() > 0; }

  /// Scores map()'s placement and keeps it if it ranks first; a search
  /// `given_seconds` (> 0) teaches how far past its time a search ends.
  /// Returns its P(abort), 1 when map() threw.
  template <typename Map>
  double consider(const std::string& name, const Map& map, double given_seconds = 0) {
    const Clock::time_point begun = Clock::now();
    Placement placement;
    try {
      placement = map();
    } catch (const Error& e) {
      if (first_error_.empty()) first_error_ = name + ": " + e.what();
      return 1;
    }
    const Clock::time_point evaluated = Clock::now();
    if (given_seconds > 0)
      overrun_seconds_ = std::max(
          overrun_seconds_, std::chrono::duration<double>(evaluated - begun).count() - given_seconds);
    const double cost = fault_weighted_hop_bytes(*request_.topology, *request_.graph, placement,
                                                 route_faults_, request_.fault_cost);
    if (name == "default-slurm") block_cost_ = cost;
    const double abort =
        expected_abort_probability(*request_.topology, *request_.graph, placement, outage_,
                                   route_faults_);
    const SharedLinkTimes::Footprint footprint = shared_.footprint(request_, placement);
    evaluation_seconds_ = std::max(evaluation_seconds_, seconds_since(evaluated));
    const Rank rank{abort == 0 && cost <= block_cost_ ? 0 : 1, footprint.bytes_on_others_links,
                    footprint.busiest, cost, abort};
    if (cost < cheapest_cost_) {
      cheapest_cost_ = cost;
      cheapest_ = placement;
    }
    found_.push_back({rank, std::move(placement)});
    fewest_on_others_[rank.safe_class] =
        std::min(fewest_on_others_[rank.safe_class], rank.bytes_on_others_links);
    rank_found();
    return abort;
  }
  /// Bytes on the other jobs' links within the tolerance of the fewest in
  /// the class count as none.
  double compared_on_others(const Rank& rank) const {
    return rank.bytes_on_others_links <= fewest_on_others_[rank.safe_class] + others_tolerance_
               ? 0
               : rank.bytes_on_others_links;
  }
  /// The fewest bytes on others' links can fall with each placement found,
  /// turning earlier ones into ties: all are ranked again.
  void rank_found() {
    for (std::size_t i = 0; i < found_.size(); ++i) {
      const Rank& rank = found_[i].rank;
      if (best_ < 0 || rank.before(best_rank(), compared_on_others(rank), compared_on_others(best_rank())))
        best_ = static_cast<int>(i);
    }
  }
  const Placement& best() const {
    static const Placement none;
    return best_ < 0 ? none : found_[best_].placement;
  }
  Rank best_rank() const { return best_ < 0 ? Rank{} : found_[best_].rank; }

  void attempt(const std::string& name, const MappingRequest& sub, double given_seconds = 0) {
    consider(name, [&] { return make_mapper(name)->map(sub); }, given_seconds);
  }

  /// greedy-routes, when routes may be kept clear of failing nodes and its
  /// predicted time fits kGreedyRoutesShare of what is left.
  void attempt_greedy_routes() {
    const int tasks = job_.graph->task_count();
    if (route_around_ && tasks <= kGreedyRoutesMaxTasks &&
        (budget_ == 0 || predicted_greedy_routes_seconds(tasks, candidate_count(job_)) <=
                             kGreedyRoutesShare * seconds_left()))
      attempt("greedy-routes", job_);
  }

  /// The scheduler's node choice (`compact`: the box of all candidates, not
  /// the window's, that passes the fewest failing nodes; linear in them),
  /// then embed and greedy within its nodes. A box without a failing node keeps every route between its
  /// nodes inside it, so these placements cannot abort: at 1024 tasks on
  /// half of a 64x32x32 torus with 64 failing nodes the route-around search
  /// alone still crossed one within the budget (bench/at_scale.py).
  void attempt_clear_box() {
    Placement blocks;
    consider("compact", [&] { return blocks = make_mapper("compact")->map(request_); });
    if (blocks.empty()) return;
    // Its nodes in its order: compact fills them block by block.
    std::vector<int> in_order;
    for (int node : blocks)
      if (in_order.empty() || in_order.back() != node) in_order.push_back(node);
    const MappingRequest box = with_candidates(job_, std::move(in_order));
    attempt("embed", box);
    if (job_.graph->task_count() <= kGreedyMaxTasks) attempt("greedy", box);
  }

  /// Scotch (tofa, or tofa-compact when a candidate may fail), then MIMS on
  /// multi-core nodes, each only when its predicted time fits what is left.
  /// Above kAnnealMaxTasks tasks, when Scotch would not leave half of the
  /// budget, local descent from the heuristics' best takes that half first.
  void run_scotch() {
    const double predicted = predicted_scotch_seconds(
        std::max<int>(job_.graph->task_count(), candidate_count(job_)));
    if (large_ && budget_ > 0 && time_left() && !best().empty() &&
        predicted > kFirstDescentShare * seconds_left()) {
      const double share = kFirstDescentShare * seconds_left();
      consider("local descent",
               [&] { return improve_from(job_, best(), anneal::Search::Descent, share); }, share);
    }
    // Not when the fault-free candidates hold a job the annealer takes: the
    // Equation 1 target took half of dt-sh-B's budget in bench/quality.sh (a)
    // for a placement crossing failing nodes (6 of 8 jobs), and annealing on
    // the fault-free candidates with that time lowered (a) from 0.610 to 0.572.
    // Tuned on: bench/quality.sh (a), its 8 tuning graphs (5dad45d).
    const bool scotch_in_budget = !(route_around_ && !large_);
    double scotch_seconds = 0;
    if (budget_ == 0 || (scotch_in_budget && predicted <= seconds_left())) {
      const double before = seconds_left();
      attempt(any_faulty_candidate(job_) ? "tofa-compact" : "tofa", job_);
      scotch_seconds = before - seconds_left();
      // On multi-core nodes the first run of the candidate order may be
      // spread out; Scotch onto the tightest ball of nodes often beats it.
      if (effective_slots(job_) > 1 && (budget_ == 0 || seconds_left() > scotch_seconds))
        attempt("tofa-packed", job_);
    }
    // MIMS maps its packs with Scotch too: worth starting only if that fits.
    if (effective_slots(job_) > 1 && (budget_ == 0 || seconds_left() > scotch_seconds))
      attempt("mims", job_);
  }

  /// Up to kAnnealMaxTasks tasks, the annealer's grow start and annealing
  /// with what is left; above, local descent from the best placement so far.
  void refine() {
    // The route-around search runs only while the best placement crosses a
    // failing node or a cheaper one does. When neither holds, its reserve
    // goes to this search, but for two scorings: at 64 tasks on 65,536
    // nodes it was 1.7 of 11.5 ms (1.17-1.21x the unbudgeted best hop-bytes,
    // 1.08-1.12x with it; bench/quality.sh (a) no worse in 3 runs each).
    if (best_rank().safe_class == 0 && !(cheapest_cost_ < best_rank().cost))
      reserve_ = std::min(reserve_, 2 * evaluation_seconds_);
    if (!time_left()) return;
    if (!large_) {
      MappingRequest anneal = job_;
      // Bhanot's balanced load spreads a job over every candidate (BG/L ran
      // one job on the whole machine); a scheduler's job takes as few nodes
      // as it needs, more only where that lowers the objective.
      anneal.parameters.emplace("load", "slots");
      const double left = budget_ > 0 ? seconds_left() : 0;
      if (budget_ > 0) {
        anneal.parameters["budget"] = std::to_string(left);
        if (left < kAnnealChainSeconds) anneal.parameters["anneal"] = "no";
      }
      attempt("anneal", anneal, left);
    } else if (!best().empty()) {
      const double left = seconds_left();
      consider("local descent",
               [&] { return improve_from(job_, best(), anneal::Search::Descent, left); }, left);
    }
  }

  /// From the lowest objective found (a placement clear of failing nodes may
  /// cost more than one a few moves away from clearing its routes), under
  /// route_around_penalty, with the reserve and, while every placement found
  /// may abort, kAbortOverrun budgets more.
  void search_around_failing_nodes() {
    MappingRequest around = job_;
    around.fault_cost.penalty =
        route_around_penalty(*request_.graph, block_cost_, request_.fault_cost.penalty);
    double left = budget_ > 0 ? seconds_left() + reserve_ : 0;
    if (budget_ > 0 && best_rank().safe_class != 0) left += kAbortOverrun * budget_ + kAbortOverrunSeconds;
    // Its placement is scored too, within the same bound, and it may end
    // as late past its time as the searches before it did.
    if (budget_ > 0) left -= evaluation_seconds_ + overrun_seconds_;
    if (budget_ > 0 && left <= 0) return;
    // While every placement found may abort, up to kClearRoutesMaxPairs,
    // the crossing edges first, moved straight off the failing nodes' routes
    // (route_repair.hpp); when that clears them it is the search's result: a
    // search under the penalty from there gained 0-0.7% hop-bytes on
    // powerlaw-128 in bench/quality.sh (a), and its setup ran it past the
    // bound. At 128 tasks of that power-law graph the search alone cleared
    // them in about half of its runs, the repair in 97 of 100 in 3-4 ms.
    // When a clear placement is at hand and a cheaper one crosses, the search
    // alone: from the cheaper, on 64 tasks on 65,536 nodes, its clear
    // placement cost less than the repair's (bench/at_scale.py: 1.05-1.16x
    // the best hop-bytes, 1.29x with the repair).
    Placement start = cheapest_;
    if (!large_ && best_rank().safe_class != 0 &&
        static_cast<double>(job_.graph->task_count()) * candidate_count(job_) <=
            kClearRoutesMaxPairs) {
      const Clock::time_point begun = Clock::now();
      if (consider("clear routes", [&] {
            return start = clear_routes(job_, cheapest_, route_faults_, left);
          }) == 0)
        return;
      if (budget_ > 0 && (left -= seconds_since(begun)) <= 0) return;
    }
    // Leaving a route often takes several moves that each cost hops:
    // annealing where it is affordable.
    const anneal::Search search = large_ ? anneal::Search::Descent : anneal::Search::Anneal;
    consider("route around", [&] {
      return improve_from(around, start, search, left, kRouteAroundDescentShare);
    });
  }

  const MappingRequest& request_;  // as asked: Slurm's layout is placed on it
  MappingRequest job_;             // the same on the candidate window
  const double budget_;
  const Clock::time_point started_;
  const bool route_around_;
  double reserve_;  // kept for the route-around search, which runs last (refine may release it)
  const bool large_;
  const std::vector<double> no_outage_;  // all 0, for a request without outages
  const std::vector<double>& outage_;
  RouteFaults route_faults_;  // every placement is scored on the same outages
  const SharedLinkTimes shared_;  // empty when blind to the other jobs
  const bool windowed_;           // job_ is on a window of the candidates
  double block_cost_ = std::numeric_limits<double>::infinity();
  struct Found {
    Rank rank;
    Placement placement;
  };
  std::vector<Found> found_;  // every placement scored, in order
  int best_ = -1;             // its index in found_
  static constexpr double kNone = std::numeric_limits<double>::infinity();
  double fewest_on_others_[2] = {kNone, kNone};  // per safe class
  const double others_tolerance_;
  Placement cheapest_;  // the lowest objective, whatever its routes cross
  double cheapest_cost_ = std::numeric_limits<double>::infinity();
  std::string first_error_;
  double evaluation_seconds_ = 0;  // the longest a placement took to score
  double overrun_seconds_ = 0;     // the furthest a budgeted search ran past its time
};

class AutoMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const Clock::time_point started = Clock::now();
    check_fits(request);
    return AutoRun(request, started).run();
  }
};

}  // namespace

std::unique_ptr<Mapper> make_auto_mapper() { return std::make_unique<AutoMapper>(); }

double auto_abort_overrun_budgets() { return kAbortOverrun; }

double scaled_placement_budget(double budget_ms, int tasks) {
  return budget_ms / 1000 * std::max(kSmallJobBudgetShare, std::pow(std::max(tasks, 1) / 128.0, 0.8));
}

}  // namespace tofa
