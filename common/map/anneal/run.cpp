#include "run.hpp"

#include <algorithm>
#include <chrono>

#include "bisection.hpp"
#include "descent.hpp"
#include "distance_table.hpp"
#include "faults/faults.hpp"
#include "load_bounds.hpp"
#include "placement_state.hpp"
#include "site_neighbourhood.hpp"

namespace tofa {
namespace anneal {
namespace {

// Above this many tasks, divide=auto bisects. On stencils one chain over
// every task reaches a lower F for the same proposals (16^3: 2.3 vs 2.9
// times F_min), so dividing only pays where one chain is too slow to sweep.
constexpr int kAutoDivideTasks = 16384;

/// Equation 1 along the routes needs a distance per pair of sites (4 MiB
/// and ~10 ms at this size); beyond, faulty nodes are only left out.
constexpr int kFaultPenaltyMaxSites = 1024;

/// anneal=descent stops earlier when a pass changes nothing; on 4096-task
/// geometric graphs the gain after 20 passes is below 0.1%.
/// Tuned on: geometric_graph(4096, 6, ...), as bench/quality.sh (d) geometric-4096 (449bded).
constexpr int kDescentOnlyPasses = 20;

/// Under a budget the grow start begins no attempt past this share of the
/// stage's time. With the deadline alone, at 256 tasks on a 65,536-node
/// torus its 16 attempts took all of auto's budget and the chain never ran
/// (1.28x the unbudgeted best hop-bytes; 1.07-1.10x with this). A local
/// descent before the chain (30% of its time) was tried beside it: worse
/// at scale (1.11-1.16x) and it undid interference-aware placement
/// (bench/interference.py, interconnect rows: -4.6 / -8.5 / -9.7% against
/// -11.9 / -14.8 / -15.5% without).
/// Tuned on: bench/at_scale.py 64 and 256 tasks, shares 0.25 to 0.7 (081efe4).
constexpr double kGrowShare = 0.4;

/// The candidates, without those with an outage probability when the
/// fault-free ones can hold every task.
std::vector<int> site_nodes(const MappingRequest& request, const AnnealOptions& options,
                            int slots) {
  std::vector<int> candidates = effective_candidates(request);
  if (!options.avoid_faulty) return candidates;
  std::vector<int> fault_free;
  for (int node : candidates)
    if (!(outage_of(request, node) > 0)) fault_free.push_back(node);
  const long long room = static_cast<long long>(fault_free.size()) * slots;
  return room >= request.graph->task_count() ? fault_free : candidates;
}

}  // namespace

// long: the seed's stages in order (start map, bisection levels, descent) on one budget.
AnnealResult anneal_placement(const MappingRequest& request, const AnnealOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  // With a budget, the grow start stops trying once it is spent.
  const Deadline deadline = deadline_after(started, options.budget_seconds);
  check_capacity(request);
  AnnealResult result;
  const CommGraph& graph = *request.graph;
  const int tasks = graph.task_count();
  if (tasks == 0) return result;
  const Topology& topology = *request.topology;
  const int slots = effective_slots(request);

  DistanceTable sites(topology, site_nodes(request, options, slots), options.metric);
  if (options.avoid_faulty && any_faulty(request.outage) &&
      sites.site_count() <= kFaultPenaltyMaxSites)
    sites.add_fault_penalty(topology, request.outage, request.fault_cost.penalty);
  if (request.fault_cost.link_extra && sites.site_count() <= kFaultPenaltyMaxSites)
    sites.add_link_costs(topology, *request.fault_cost.link_extra);
  const LoadBounds bounds = options.balanced_load ? balanced_load(tasks, sites.site_count())
                                                  : slot_load(sites.site_count(), slots);
  result.lower_bound = free_energy_lower_bound(graph, topology, bounds.highest, options.metric);
  const double scale = result.lower_bound > 0 ? result.lower_bound : std::max(1.0, graph.total_bytes());

  // Dividing shortens annealing's chains; a descent or a bare start gains nothing from it.
  const bool divide = options.search == Search::Anneal &&
                      (options.divide == DivideMode::Always ||
                       (options.divide == DivideMode::Auto && tasks > kAutoDivideTasks));
  const std::vector<std::vector<int>> stages =
      bisection_stages(graph, divide ? options.limit : 0, request.seed);
  result.stages = static_cast<int>(stages.size());

  const std::uint64_t proposals =
      options.iterations > 0 ? options.iterations
                             : static_cast<std::uint64_t>(options.sweeps * tasks);
  std::vector<int> given;
  if (options.start == StartKind::Given)
    given = options.given_start.empty() ? make_mapper("tofa")->map(request) : options.given_start;
  PlacementState state(graph, sites, bounds);
  const SiteNeighbourhood around(topology, sites);
  RandomStream random(request.seed);
  ProgressReporter progress(options.progress);
  int placed = 0;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const std::vector<int>& stage = stages[s];
    progress.set_stage(static_cast<int>(s) + 1, result.stages);
    const double energy_before = state.energy();
    // Only a start of the whole graph can be compared with F_min.
    const bool whole_graph = stage.size() == static_cast<std::size_t>(tasks);
    const double good_enough = whole_graph ? result.lower_bound : 0;
    // Each stage gets its share of what is left, by task count.
    const double share = double(stage.size()) / (tasks - placed);
    Deadline retry_deadline = deadline;
    if (options.budget_seconds > 0) {
      const auto now = std::chrono::steady_clock::now();
      retry_deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 (deadline - now) * (kGrowShare * share));
    }
    start(options.start, state, around, stage, random, given, options.grow_attempts, good_enough,
          deadline, retry_deadline);
    result.start_energy += state.energy() - energy_before;
    placed += static_cast<int>(stage.size());

    ChainBudget budget;
    budget.proposals = static_cast<std::uint64_t>((proposals - std::min(proposals, result.proposals)) * share);
    if (options.budget_seconds > 0) {
      const double left = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) continue;  // the budget is spent: the remaining stages keep their starts
      budget.seconds = left * share;
    }
    // F never goes below F_min: a start that reaches it is optimal.
    const bool optimal = placed == tasks && result.lower_bound > 0 &&
                         state.energy() <= result.lower_bound * (1 + 1e-12);
    if (options.search == Search::None || optimal) continue;
    if (options.search == Search::Descent) {
      result.proposals += local_descent(state, around, stage, placed == tasks, kDescentOnlyPasses,
                                        deadline);
      continue;
    }
    if (options.descent_first_share > 0) {
      const auto descent_started = std::chrono::steady_clock::now();
      result.proposals += local_descent(
          state, around, stage, placed == tasks, kDescentOnlyPasses,
          deadline_after(descent_started, options.descent_first_share * budget.seconds));
      const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - descent_started;
      // A chain budget of 0 seconds would mean no limit.
      if (budget.seconds > 0 && (budget.seconds -= spent.count()) <= 0) continue;
    }
    ChainSettings settings = options.chain;
    settings.keep_lowest = placed == tasks;
    const ChainReport report =
        anneal_stage(state, around, stage, scale, settings, budget, random, progress);
    result.proposals += report.proposals;
    result.accepted += report.accepted;
  }
  result.placement = state.nodes();
  result.energy = state.energy();
  progress.finish(result.energy / scale);
  check_placement(request, result.placement);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace anneal
}  // namespace tofa
