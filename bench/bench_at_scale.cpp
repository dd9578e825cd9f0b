// Placement at scale (issue 38, items 2 and 3): a 64x32x32 torus (65,536
// nodes), half busy in box-shaped allocations of 1 to 8 nodes a side,
// 64 failing idle nodes at p = 0.02, geometric graphs of 64 to 4,096 tasks,
// the candidates being the idle nodes in id order (Slurm's node order).
// Every strategy is timed once on each job; `auto` with the budget the
// service gives the job (PlacementBudget, scaled by tasks) and
// without one. Prints JSON: every placement's time, hop-bytes, Equation 1
// objective and P(abort), and per job the checks of items 2 and 3.
//
//   bench/bench_at_scale [--torus 64x32x32] [--tasks 64,256,1024,4096]
//                        [--budget-ms MS] [--quick]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "alloc/allocators.hpp"
#include "bench_machine.hpp"
#include "bench_options.hpp"
#include "faults/faults.hpp"
#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "map/portfolio/strategies.hpp"
#include "metrics/metrics.hpp"
#include "service/tofa_conf.hpp"

namespace {

using tofa_bench::Machine;
using Clock = std::chrono::steady_clock;

/// Item 2: auto returns within this many budgets plus kBudgetSlackMs.
constexpr double kBudgetFactor = 1.2;
constexpr double kBudgetSlackMs = 2;
/// Item 3: the default's hop-bytes within this factor of the best unbudgeted strategy.
constexpr double kQualityFactor = 1.25;

struct Options {
  std::string torus = "64x32x32";
  std::vector<int> tasks = {64, 256, 1024, 4096};
  double budget_ms = tofa::service::ServiceSettings{}.placement_budget_ms;
  int max_box = 8;
  int failing = 64;
};

struct Row {
  std::string strategy;
  double ms = 0, budget_ms = 0, hop_bytes = 0, objective = 0, abort = 0;
};

Row place(const Machine& m, const tofa::CommGraph& graph, const std::string& strategy,
          double budget_ms) {
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &m.topology;
  request.candidate_nodes = m.idle;
  request.outage = m.outage;
  if (budget_ms > 0) request.parameters["budget"] = std::to_string(budget_ms / 1000);
  const Clock::time_point start = Clock::now();
  const tofa::Placement placement = tofa::make_mapper(strategy)->map(request);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  tofa::check_placement(request, placement);
  const tofa::PlacementMetrics metrics =
      tofa::evaluate_placement(graph, m.topology, placement, m.outage);
  Row row{budget_ms > 0 ? strategy + " (budget)" : strategy, ms, budget_ms, metrics.hop_bytes,
          tofa::fault_weighted_hop_bytes(m.topology, graph, placement, m.outage, {}),
          metrics.abort_probability};
  if (isatty(STDERR_FILENO))
    std::cerr << "  " << graph.task_count() << " tasks, " << row.strategy << ": " << ms
              << " ms, hop-bytes " << row.hop_bytes << "\n";
  return row;
}

nlohmann::json run_job(const Machine& m, int tasks, const Options& options) {
  const tofa::CommGraph graph = tofa::graph_from_spec("geometric:" + std::to_string(tasks));
  const double budget_ms = 1000 * tofa::scaled_placement_budget(options.budget_ms, tasks);
  std::vector<Row> rows;
  rows.push_back(place(m, graph, "auto", budget_ms));
  for (const char* name : {"auto", "tofa", "greedy", "embed", "default-slurm"})
    rows.push_back(place(m, graph, name, 0));
  double best_unbudgeted = INFINITY;
  bool some_abort_free = false;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].strategy != "default-slurm") best_unbudgeted = std::min(best_unbudgeted, rows[i].hop_bytes);
    some_abort_free = some_abort_free || rows[i].abort == 0;
  }
  const Row& def = rows[0];
  nlohmann::json placements = nlohmann::json::array();
  for (const Row& r : rows)
    placements.push_back({{"strategy", r.strategy}, {"ms", r.ms}, {"budget_ms", r.budget_ms},
                          {"hop_bytes", r.hop_bytes}, {"objective", r.objective},
                          {"abort_probability", r.abort}});
  return {{"tasks", tasks},
          {"edges", graph.edge_count()},
          {"placements", placements},
          {"default_ms", def.ms},
          {"default_budget_ms", budget_ms},
          {"default_time_bound_ms", kBudgetFactor * budget_ms + kBudgetSlackMs},
          {"default_within_time_bound", def.ms <= kBudgetFactor * budget_ms + kBudgetSlackMs},
          {"best_unbudgeted_hop_bytes", best_unbudgeted},
          {"default_over_best", def.hop_bytes / best_unbudgeted},
          {"default_within_quality_bound", def.hop_bytes <= kQualityFactor * best_unbudgeted},
          {"abort_free_placement_found", some_abort_free},
          {"default_abort_free_when_possible", !some_abort_free || def.abort == 0}};
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const bool options_ok = tofa_bench::parse_options(argc, argv, "bench_at_scale", [&](const std::string& arg, const auto& value) {
    if (arg == "--torus") options.torus = value();
    else if (arg == "--tasks") options.tasks = tofa_bench::parse_list(value());
    else if (arg == "--budget-ms") options.budget_ms = std::stod(value());
    else if (arg == "--quick") options.torus = "32x32x16", options.tasks = {64, 256};
    else throw std::runtime_error("unknown option " + arg);
  });
  if (!options_ok) return 2;
  try {
    const Machine m = tofa_bench::build_machine(options.torus, options.max_box, options.failing);
    nlohmann::json jobs = nlohmann::json::array();
    for (int tasks : options.tasks) jobs.push_back(run_job(m, tasks, options));
    const nlohmann::json out{{"torus", options.torus},
                             {"nodes", m.topology.node_count()},
                             {"idle_candidates", m.idle.size()},
                             {"failing_idle_nodes", options.failing},
                             {"placement_budget_ms", options.budget_ms},
                             {"time_bound", "1.2 x budget + 2 ms"},
                             {"quality_bound", "1.25 x the best unbudgeted hop-bytes"},
                             {"jobs", jobs}};
    std::cout << out.dump(2) << "\n";
  } catch (const std::exception& e) {
    std::cerr << "bench_at_scale: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
