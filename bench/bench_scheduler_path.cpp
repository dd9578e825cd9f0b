// What tofa costs inside slurmctld's scheduling pass per TOFA job (issue 38,
// item 1): everything the select shim (22.05) or eval_nodes (24.11, 26.05)
// does for a job there, in the service's own code: the failing-node list,
// the candidates from the free CPUs (names and task limits, as
// tofa_service_choose_nodes_from takes them), the node choice
// (ServiceState::choose_nodes) and queueing the job's strategy on the
// allocation (map_later). Slurm's own work on the job (cons_tres) is not
// counted. The strategy then runs on the service's mapping threads; the
// time until the job's placement is final is reported beside it, and the
// hop-bytes of that placement over those of the strategy run on every
// candidate, as the scheduler ran it before (median of 3 jobs).
//
// The machine: a torus half busy in box-shaped allocations, `failing` idle
// nodes at p = 0.02, CORES task slots on every idle node; geometric graphs.
// Prints JSON: per task count, p50/p99/max of the scheduler path and p50 of
// the time to the final placement.
//
//   bench/bench_scheduler_path [--torus 8x8x8] [--cores 16] [--failing 8]
//                              [--tasks 1,16,64,256,1024,4096] [--jobs 40]
//                              [--max-box 8] [--strategy NAME]
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_machine.hpp"
#include "bench_options.hpp"
#include "graph/generators.hpp"
#include "service/placement.hpp"
#include "service/service_state.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using tofa::service::PlaceRequest;
using tofa::service::PlacementRecord;
using tofa::service::ServiceSettings;
using tofa::service::ServiceState;

struct Options {
  std::string torus = "8x8x8";
  int cores = 16;
  int failing = 8;
  std::vector<int> tasks = {1, 16, 64, 256, 1024, 4096};
  int jobs = 40;
  int max_box = 8;
  std::string strategy;  ///< queued on the allocation; "" = the default
};

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// This thread's CPU time, ms: the scheduler's work without the time the
/// kernel gave other threads (on 2 cores the mapping threads, the state
/// writer and the rest of the machine take turns with it).
double thread_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return 1e3 * static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_nsec);
}

/// Nearest rank: the smallest value at or above a share p of the values.
double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, rank == 0 ? 0 : rank - 1)];
}

std::string graph_text(int tasks) {
  if (tasks == 1) return "1\n0\n";  // matrix format: a lone task
  std::ostringstream text;
  for (const tofa::CommEdge& edge : tofa::graph_from_spec("geometric:" + std::to_string(tasks)).undirected_edges())
    text << edge.from << ' ' << edge.to << ' ' << edge.bytes << '\n';
  return text.str();
}

/// One job through the scheduler's path; returns its milliseconds there
/// (wall clock; its CPU time in *cpu_ms) and (in *final_ms) until its
/// placement was final.
double schedule_one(ServiceState& state, const tofa_bench::Machine& m, unsigned job,
                    const std::string& graph_id, const Options& options, double* cpu_ms,
                    double* final_ms) {
  const Clock::time_point start = Clock::now();
  const double cpu_start = thread_cpu_ms();
  // The shims leave out the failing nodes by bitmap, then hand the rest
  // over by name with their limits (tofa_service_choose_nodes_from).
  std::vector<char> failing(static_cast<std::size_t>(m.topology.node_count()), 0);
  for (const std::string& name : state.failing_nodes()) failing[m.topology.node_by_name(name)] = 1;
  std::vector<tofa::service::NamedCandidate> candidates;
  candidates.reserve(m.idle.size());  // as the shims size theirs by Slurm's idle bitmap
  for (int node : m.idle)
    if (!failing[node]) candidates.push_back({m.topology.node_name(node), 0, options.cores});
  PlaceRequest request;
  request.uid = 1000;
  request.graph_id = graph_id;
  request.job = job;
  request.from_slurmctld = true;
  tofa::Placement ids;
  state.choose_nodes(request, tofa::service::candidate_limits(m.topology, candidates), &ids);
  // Slurm's allocation, its nodes in node table order with 1 to their CPUs
  // in tasks, as the shims read it from the job's resources.
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<tofa::service::NamedCandidate> allocation;
  for (int node : ids) allocation.push_back({m.topology.node_name(node), 1, options.cores});
  state.map_later(job, tofa::service::candidate_limits(m.topology, allocation), options.strategy, "");
  const double scheduler_ms = ms_since(start);
  *cpu_ms = thread_cpu_ms() - cpu_start;
  while (state.job_placement(job, std::nullopt).pending)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  *final_ms = ms_since(start);
  return scheduler_ms;
}

struct Before {
  double hop_bytes_ratio = 1;  ///< the final placement's over the strategy's on every candidate
  double ms = 0;               ///< the strategy on every candidate, as the scheduler ran it before
};

/// The job's final placement against the strategy run as the scheduler ran
/// it before (on every candidate, with the graph in view, in the pass).
Before compare_with_before(ServiceState& state, const tofa_bench::Machine& m,
                                                   unsigned job, const std::string& graph_id,
                                                   const Options& options) {
  std::string candidates;
  for (int node : m.idle)
    candidates += (candidates.empty() ? "" : ",") + m.topology.node_name(node) + ":" +
                  std::to_string(options.cores);
  PlaceRequest request;
  request.uid = 1000;
  request.graph_id = graph_id;
  request.from_slurmctld = true;
  request.strategy = options.strategy;
  request.candidates = candidates;
  const Clock::time_point start = Clock::now();
  const double before = state.place(request).metrics.hop_bytes;
  const double ms = ms_since(start);
  const double now = state.job_placement(job, std::nullopt).metrics.hop_bytes;
  return Before{before > 0 ? now / before : 1, ms};
}

}  // namespace

// long: the benchmark's options, cases and JSON in one driver.
int main(int argc, char** argv) {
  Options options;
  const bool options_ok = tofa_bench::parse_options(argc, argv, "bench_scheduler_path", [&](const std::string& arg, const auto& value) {
    if (arg == "--torus") options.torus = value();
    else if (arg == "--cores") options.cores = std::stoi(value());
    else if (arg == "--failing") options.failing = std::stoi(value());
    else if (arg == "--tasks") options.tasks = tofa_bench::parse_list(value());
    else if (arg == "--jobs") options.jobs = std::stoi(value());
    else if (arg == "--max-box") options.max_box = std::stoi(value());
    else if (arg == "--strategy") options.strategy = value();
    else throw std::runtime_error("unknown option " + arg);
  });
  if (!options_ok) return 2;
  // A state directory, as slurmctld's: every record is written out.
  char state_dir[] = "/tmp/tofa-bench-state-XXXXXX";
  if (mkdtemp(state_dir) == nullptr) {
    std::cerr << "bench_scheduler_path: mkdtemp failed\n";
    return 1;
  }
  int rc = 0;
  try {
    const tofa_bench::Machine m = tofa_bench::build_machine(options.torus, options.max_box, options.failing);
    ServiceSettings settings;
    settings.map_worker.program.clear();  // strategies in this process
    ServiceState state(settings, m.topology, 0, state_dir, nullptr);
    std::vector<std::pair<std::string, double>> outages;
    for (int node = 0; node < m.topology.node_count(); ++node)
      if (m.outage[node] > 0) outages.emplace_back(m.topology.node_name(node), m.outage[node]);
    state.set_outages(0, outages);
    nlohmann::json rows = nlohmann::json::array();
    unsigned job = 1;
    // The service's first jobs after it started touch a cold heap and
    // caches, once per daemon: timed apart, not in the percentiles. Two of
    // them: glibc serves a large block by mmap until one such block is freed
    // (then from the heap), so the second job grows the heap by the scheduler
    // path's ~1 MB at 65,536 nodes, new pages at ~20 us each here (9-15 ms,
    // the p99 of a row of 40 jobs when it was timed there).
    nlohmann::json warmup_jobs_ms = nlohmann::json::array();
    if (!options.tasks.empty()) {
      const std::string graph_id = state.upload_graph(1000, "geometric", graph_text(options.tasks.front())).id;
      for (int warmup = 0; warmup < 2; ++warmup) {
        double cpu_ms = 0, final_ms = 0;
        warmup_jobs_ms.push_back(schedule_one(state, m, job++, graph_id, options, &cpu_ms, &final_ms));
        state.wait_for_mappings();
      }
    }
    for (int tasks : options.tasks) {
      if (static_cast<long long>(tasks) > static_cast<long long>(m.idle.size()) * options.cores)
        continue;
      const std::string graph_id = state.upload_graph(1000, "geometric", graph_text(tasks)).id;
      std::vector<double> scheduler, cpu, final, ratio, before_ms;
      for (int j = 0; j < options.jobs; ++j) {
        double final_ms = 0, cpu_ms = 0;
        scheduler.push_back(schedule_one(state, m, job, graph_id, options, &cpu_ms, &final_ms));
        cpu.push_back(cpu_ms);
        if (std::getenv("TOFA_BENCH_TRACE")) std::cerr << tasks << " " << j << " " << scheduler.back() << "\n";
        final.push_back(final_ms);
        if (j < 3) {
          state.wait_for_mappings();  // the final placement's metrics follow its order
          const Before before = compare_with_before(state, m, job, graph_id, options);
          ratio.push_back(before.hop_bytes_ratio);
          before_ms.push_back(before.ms);
        }
        ++job;
        if (isatty(STDERR_FILENO))
          std::cerr << "\r  " << tasks << " tasks: job " << j + 1 << "/" << options.jobs << std::flush;
      }
      if (isatty(STDERR_FILENO)) std::cerr << "\n";
      rows.push_back({{"tasks", tasks},
                      {"jobs", options.jobs},
                      {"scheduler_ms_p50", percentile(scheduler, 0.5)},
                      {"scheduler_ms_p99", percentile(scheduler, 0.99)},
                      {"scheduler_ms_max", percentile(scheduler, 1.0)},
                      {"scheduler_cpu_ms_p99", percentile(cpu, 0.99)},
                      {"final_placement_ms_p50", percentile(final, 0.5)},
                      {"hop_bytes_over_strategy_on_all_candidates", percentile(ratio, 0.5)},
                      {"before_ms_p50", percentile(before_ms, 0.5)}});
    }
    std::cout << nlohmann::json{{"torus", options.torus},
                                {"nodes", m.topology.node_count()},
                                {"idle_nodes", m.idle.size()},
                                {"cores_per_idle_node", options.cores},
                                {"failing_idle_nodes", options.failing},
                                {"busy_box_side_max", options.max_box},
                                {"strategy", options.strategy.empty() ? std::string("auto") : options.strategy},
                                {"warmup_jobs_ms", warmup_jobs_ms},
                                {"rows", rows}}
                     .dump(2)
              << "\n";
  } catch (const std::exception& e) {
    std::cerr << "bench_scheduler_path: " << e.what() << "\n";
    rc = 1;
  }
  std::filesystem::remove_all(state_dir);
  return rc;
}
