#include "harness/stream_phase.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <deque>
#include <functional>
#include <queue>
#include <set>

#include "base/error.hpp"
#include "capi/tofa_service.h"
#include "harness/cluster_files.hpp"
#include "harness/stream/bunde_mappers.hpp"
#include "harness/stream/easy_backfill.hpp"
#include "harness/stream/stream_allocators.hpp"
#include "harness/stream/stream_metrics.hpp"
#include "sim/progress.hpp"

namespace tofa::harness {
namespace {

using Json = nlohmann::ordered_json;

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto at = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  return values[std::min(values.size() - 1, at == 0 ? 0 : at - 1)];
}

/// The free CPUs as the select shims hand them over: every node with a free
/// CPU, by name (`names`, one per node), with the tasks it may take.
std::vector<tofa_candidate_t> free_cpus(const std::vector<int>& free_slots,
                                        const std::vector<std::string>& names) {
  std::vector<tofa_candidate_t> out;
  for (std::size_t node = 0; node < free_slots.size(); ++node)
    if (free_slots[node] > 0)
      out.push_back({names[node].c_str(), 0, static_cast<unsigned>(free_slots[node])});
  return out;
}

/// The power of two at or below `tasks`: the bucket of latencies by job size.
int size_bucket(int tasks) {
  int bucket = 1;
  while (bucket * 2 <= tasks) bucket *= 2;
  return bucket;
}

/// Node indices of a comma list of harness node names (a C API result,
/// freed here).
std::vector<int> take_node_list(char* names) {
  std::vector<int> nodes;
  for (const char *at = names, *end; at && *at; at = *end ? end + 1 : end) {
    end = at;
    while (*end && *end != ',') ++end;
    nodes.push_back(node_index(std::string(at, end)));
  }
  std::free(names);
  return nodes;
}

/// The Slurm job id a stream job gets in the service (never 0).
unsigned service_job_id(const StreamJob& job) { return static_cast<unsigned>(job.id) + 1; }

/// How often the slurmctld plugin tells the service which jobs run
/// (PUSH_PERIOD of plugins/common/tofa_ctld.c), in wall-clock seconds.
constexpr double kRunningJobsPushSeconds = 3;

/// Chooses a job's nodes through the service, as the select shim does in
/// slurmctld's scheduling pass (tofa_service_choose_nodes_from, then
/// tofa_service_map_later: the strategy orders the tasks later, on the
/// service's mapping threads); when the node choice fails the job gets
/// Slurm's own layout (the block layout here). The latency is the
/// scheduler's part alone. Every node keeps the tasks the choice gave it,
/// so the stream's CPU accounting holds for the final placement.
Allocate service_allocator(const std::string& strategy, int node_count, JobGraphs& graphs,
                           std::vector<double>* latencies,
                           std::map<int, std::vector<double>>* by_size,
                           std::map<std::string, long>* refusals,
                           std::map<std::string, long>* fallbacks) {
  const Allocate slurm_layout = block_allocator();
  char* names = nullptr;
  char err[512];
  if (tofa_service_failing_nodes(&names, err, sizeof err) != TOFA_OK)
    throw Error(std::string("the TOFA service: ") + err);
  // Fixed for the stream: the outage probabilities are pinned.
  const std::vector<int> failing = take_node_list(names);
  std::vector<std::string> node_names;
  for (int node = 0; node < node_count; ++node) node_names.push_back(node_name(node, node_count));
  return [=, &graphs](const StreamJob& job, const std::vector<int>& free_slots)
             -> std::optional<std::vector<int>> {
    const std::string graph = graphs.id(job.tasks);
    // As select/tofa does: nodes above OutageThreshold are left out while
    // the job fits without them (OnlyFailingNodesFit). Slurm's own layout
    // (default-slurm, the baseline) knows nothing of them.
    std::vector<tofa_candidate_t> candidates;
    std::vector<unsigned> tasks;
    char err[1024];
    const auto started = std::chrono::steady_clock::now();
    auto place = [&](bool with_failing, int* left_out) {
      std::vector<int> slots = free_slots;
      if (!with_failing && strategy != "default-slurm")
        for (int node : failing) {
          *left_out += slots[static_cast<std::size_t>(node)] > 0;
          slots[static_cast<std::size_t>(node)] = 0;
        }
      candidates = free_cpus(slots, node_names);
      tasks.assign(candidates.size(), 0);
      return tofa_service_choose_nodes_from(service_job_id(job), 0, graph.c_str(), candidates.data(),
                                            static_cast<int>(candidates.size()), 0, 0, tasks.data(),
                                            err, sizeof err);
    };
    char note[256];
    int rc = tofa_service_choose_healthy_first(
                 [](int with_failing, int* left_out, void* arg) {
                   return (*static_cast<decltype(place)*>(arg))(with_failing != 0, left_out);
                 },
                 &place, note, sizeof note) == TOFA_CHOICE_MADE
                 ? TOFA_OK
                 : TOFA_ERROR;
    if (rc == TOFA_OK)
      rc = tofa_service_map_later(service_job_id(job), nullptr, 0, strategy.c_str(), nullptr, err,
                                  sizeof err);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    latencies->push_back(ms);
    (*by_size)[size_bucket(job.tasks)].push_back(ms);
    if (rc == TOFA_OK) {  // the chosen nodes in node order, a node's tasks together
      std::vector<int> placement;
      for (std::size_t k = 0; k < candidates.size(); ++k)
        placement.insert(placement.end(), tasks[k], node_index(candidates[k].name));
      return placement;
    }
    char forget_err[256];
    tofa_service_forget_job(service_job_id(job), forget_err, sizeof forget_err);
    const std::string reason = std::string(err).substr(0, 120);
    std::optional<std::vector<int>> fallback = slurm_layout(job, free_slots);
    ++(fallback ? *fallbacks : *refusals)[reason];
    return fallback;
  };
}

}  // namespace

// long: the job stream's loop (allocate, place, account), one CSV row per job.
Json run_stream(const std::string& strategy, const Topology& topology,
                const std::vector<StreamJob>& jobs, const std::vector<double>& outage,
                JobGraphs& graphs, const std::string& jobs_csv) {
  std::ofstream csv(jobs_csv);
  if (!csv) throw Error("cannot write " + jobs_csv);
  csv << "job,tasks,submit,start,wait,hop_bytes,average_hops,p_abort,completion_proxy\n";
  std::vector<double> latencies;
  std::map<int, std::vector<double>> by_size;
  std::map<std::string, long> refusals, fallbacks;
  Allocate allocate;
  if (strategy == "mc1x1") allocate = mc1x1_allocator(topology);
  else if (strategy == "snake") allocate = snake_best_fit_allocator(topology);
  else allocate = service_allocator(strategy, topology.node_count(), graphs, &latencies, &by_size, &refusals, &fallbacks);
  const bool through_service = strategy != "mc1x1" && strategy != "snake";

  double hop_bytes = 0, abort_sum = 0, runtime_sum = 0, completion_sum = 0;
  double bunde_hops = 0, all_hops = 0;
  long bunde_jobs = 0, bunde_skipped = 0, measured = 0, certain_aborts = 0;
  std::vector<double> completion_ratios;
  // The seed's mappers on the seed's allocators' choices (its section 5).
  const bool bunde_allocator = strategy == "mc1x1" || strategy == "snake";
  std::map<std::string, double> mapper_hops;
  double mapped_baseline_hops = 0;
  long mapped_jobs = 0, uneven_allocations = 0;
  // Slots in use, swept at every start: a placement never exceeds a node's CPUs.
  std::vector<int> used(static_cast<std::size_t>(topology.node_count()), 0);
  struct Running {
    double end;
    std::vector<int> nodes;
    unsigned job;  // its id in the service
  };
  auto later = [](const Running& a, const Running& b) { return a.end > b.end; };
  std::priority_queue<Running, std::vector<Running>, decltype(later)> running(later);
  // As slurmctld does, the service is told which jobs run every
  // kRunningJobsPushSeconds (their links: InterferenceWeight), and a job's
  // record is kept while it runs and dropped once it ended and was measured
  // (a 10,000-job stream would hold millions of node names).
  std::set<unsigned> running_jobs, measured_running, ended_unmeasured;
  auto last_push = std::chrono::steady_clock::now();
  const auto push_running_jobs = [&] {
    const auto now = std::chrono::steady_clock::now();
    if (!through_service || std::chrono::duration<double>(now - last_push).count() < kRunningJobsPushSeconds)
      return;
    last_push = now;
    const std::vector<unsigned> ids(running_jobs.begin(), running_jobs.end());
    char err[256];
    if (tofa_service_set_running_jobs(ids.data(), static_cast<int>(ids.size()), err, sizeof err) != TOFA_OK)
      throw Error(std::string("tofa_service_set_running_jobs: ") + err);
  };
  const auto forget = [](unsigned job) {
    char err[256];
    tofa_service_forget_job(job, err, sizeof err);  // a job that fell back to Slurm's layout has none
  };
  long oversubscribed = 0;
  sim::Progress progress("stream " + strategy, static_cast<long long>(jobs.size()));
  EasyOptions options;
  options.keep_task_nodes = false;
  options.progress = [&](long done, long) { progress.update(done); };
  std::deque<ScheduledJob> started_jobs;  // not measured yet, in start order
  std::function<void(ScheduledJob)> measure;
  // Measures the oldest started jobs whose placement is final.
  const auto measure_final = [&] {
    while (!started_jobs.empty() &&
           (latencies.empty() || tofa_service_placement_pending(service_job_id(started_jobs.front().job)) != 1)) {
      measure(std::move(started_jobs.front()));
      started_jobs.pop_front();
    }
  };
  options.on_start = [&](const ScheduledJob& started) {
    for (; !running.empty() && running.top().end <= started.start; running.pop()) {
      for (int node : running.top().nodes) --used[static_cast<std::size_t>(node)];
      const unsigned ended = running.top().job;
      running_jobs.erase(ended);
      if (!through_service) continue;
      if (measured_running.erase(ended)) forget(ended);
      else ended_unmeasured.insert(ended);
    }
    bool over = false;
    for (int node : started.task_nodes)
      over |= ++used[static_cast<std::size_t>(node)] > topology.cores_per_node();
    oversubscribed += over;
    running.push({started.end, started.task_nodes, service_job_id(started.job)});
    running_jobs.insert(service_job_id(started.job));
    started_jobs.push_back(started);
    measure_final();
    push_running_jobs();
  };
  // Each started job's metrics, on its final placement: the service's
  // record once its strategy ordered the tasks (the same nodes, as many
  // tasks on each), else what the allocator returned.
  measure = [&](ScheduledJob started) {
    char* recorded = nullptr;
    char err[256];
    const unsigned job_id = service_job_id(started.job);
    if (through_service && tofa_service_job_placement(job_id, &recorded, err, sizeof err) == TOFA_OK) {
      std::vector<int> final_nodes = take_node_list(recorded);
      if (final_nodes.size() == started.task_nodes.size()) started.task_nodes = std::move(final_nodes);
    }
    if (through_service && ended_unmeasured.erase(job_id)) forget(job_id);
    else if (through_service) measured_running.insert(job_id);
    const CommGraph graph = graphs.graph(started.job.tasks);
    const JobMetrics m = job_metrics(started.job.runtime, graph, topology, started.task_nodes, outage);
    csv << started.job.id << "," << started.job.tasks << "," << started.job.submit << ","
        << started.start << "," << started.wait << "," << m.hop_bytes << "," << m.average_hops
        << "," << m.abort_probability << "," << m.expected_completion << "\n";
    hop_bytes += m.hop_bytes;
    abort_sum += m.abort_probability;
    runtime_sum += started.job.runtime;
    if (std::isfinite(m.expected_completion)) completion_sum += m.expected_completion;
    else ++certain_aborts;
    if (started.job.runtime > 0) completion_ratios.push_back(m.expected_completion / started.job.runtime);
    all_hops += m.average_hops;
    ++measured;
    if (bunde_skip(started.job.tasks, topology) == ShapeSkip::None) {
      bunde_hops += m.average_hops;
      ++bunde_jobs;
      if (bunde_allocator) {
        const auto hops = bunde_mapper_hops(bunde_mappers(), topology, started.task_nodes);
        if (!hops) {
          ++uneven_allocations;
        } else {
          for (const auto& [mapper, h] : *hops) mapper_hops[mapper] += h;
          mapped_baseline_hops += m.average_hops;
          ++mapped_jobs;
        }
      }
    } else {
      ++bunde_skipped;
    }
  };
  const auto started = std::chrono::steady_clock::now();
  const StreamResult result = simulate_easy(
      Machine{topology.node_count(), topology.cores_per_node()}, jobs, allocate, options);
  progress.finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  // The strategies still ordering tasks when the last job was scheduled.
  tofa_service_wait_for_mappings();
  const double mapping_drain_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() - seconds;
  measure_final();
  if (through_service) {  // the next stream starts on an empty machine
    for (unsigned job : measured_running) forget(job);
    char err[256];
    if (tofa_service_set_running_jobs(nullptr, 0, err, sizeof err) != TOFA_OK)
      throw Error(std::string("tofa_service_set_running_jobs: ") + err);
  }
  const double count = static_cast<double>(std::max<long>(1, measured));
  int smallest_rejected = 0;
  for (const RejectedJob& r : result.rejected)
    if (smallest_rejected == 0 || r.job.tasks < smallest_rejected) smallest_rejected = r.job.tasks;
  Json sizes = Json::array();
  for (const auto& [bucket, values] : by_size)
    sizes.push_back({{"tasks_from", bucket}, {"calls", values.size()},
                     {"p50", percentile(values, 0.5)}, {"p95", percentile(values, 0.95)}});
  Json bunde = {{"average_hops", bunde_jobs ? bunde_hops / static_cast<double>(bunde_jobs) : 0.0},
                {"jobs", bunde_jobs},
                {"skipped", bunde_skipped}};
  if (bunde_allocator) {
    // Average hops per mapper over the same jobs, BASELINE = allocation order.
    const double jobs_mapped = static_cast<double>(std::max<long>(1, mapped_jobs));
    Json mappers = {{"stencil-baseline", mapped_baseline_hops / jobs_mapped}};
    for (const std::string& mapper : bunde_mappers()) mappers[mapper] = mapper_hops[mapper] / jobs_mapped;
    bunde["mappers"] = {{"jobs", mapped_jobs},
                        {"uneven_allocations", uneven_allocations},
                        {"average_hops", mappers}};
  }
  Json refused = Json::object(), fell_back = Json::object();
  long fallback_count = 0;
  for (const auto& [reason, times] : refusals) refused[reason] = times;
  for (const auto& [reason, times] : fallbacks) {
    fell_back[reason] = times;
    fallback_count += times;
  }
  return Json{
      {"strategy", strategy},
      {"jobs_csv", jobs_csv},
      {"path", latencies.empty() ? "harness allocator"
                                 : "tofa_service_choose_nodes_from + tofa_service_map_later"},
      {"seconds", seconds},
      {"mapping_drain_seconds", mapping_drain_seconds},
      {"jobs_started", result.jobs.size()},
      {"jobs_rejected", result.rejected.size()},
      {"smallest_rejected_job", smallest_rejected},
      {"oversubscribed_starts", oversubscribed},
      {"placement_latency_ms",
       {{"p50", percentile(latencies, 0.5)}, {"p95", percentile(latencies, 0.95)},
        {"p99", percentile(latencies, 0.99)}, {"max", percentile(latencies, 1.0)},
        {"calls", latencies.size()}}},
      {"placement_latency_by_size", sizes},
      {"refusals", refused},
      {"slurm_layout_fallbacks", fallback_count},
      {"fallback_reasons", fell_back},
      {"utilisation", result.totals.utilisation},
      {"makespan", result.totals.makespan},
      {"mean_wait", result.totals.mean_wait},
      {"p95_wait", result.totals.p95_wait},
      {"mean_bounded_slowdown", result.totals.mean_bounded_slowdown},
      {"mean_hop_bytes", hop_bytes / count},
      {"mean_average_hops", all_hops / count},
      {"mean_abort_probability", abort_sum / count},
      {"expected_aborts", abort_sum},
      {"certain_aborts", certain_aborts},
      {"completion_proxy_ratio", runtime_sum > 0 ? completion_sum / runtime_sum : 0.0},
      {"completion_proxy_median", percentile(completion_ratios, 0.5)},
      {"bunde", bunde}};
}

}  // namespace tofa::harness
