// tofa-harness: the tofa plugins outside slurmctld, on a synthetic cluster of
// up to 158,976 nodes (Fugaku's torus) and beyond, with a job stream. See
// man/tofa-harness.1.
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "base/error.hpp"
#include "capi/tofa_service.h"
#include "harness/cluster_files.hpp"
#include "harness/failure_model.hpp"
#include "harness/heartbeat_phase.hpp"
#include "harness/node_processes.hpp"
#include "harness/plugin_host.hpp"
#include "harness/processes.hpp"
#include "harness/report.hpp"
#include "harness/stream/job_generator.hpp"
#include "harness/stream/swf.hpp"
#include "harness/stream_phase.hpp"
#include "map/portfolio/strategies.hpp"
#include "service/tofa_conf.hpp"

namespace {

using namespace tofa::harness;
using Json = nlohmann::ordered_json;

struct RunOptions {
  std::string topology = "torus:8x8x8";
  std::string conf;  ///< an existing tofa.conf: its shape instead of --topology
  int cores = 1;
  int spank_nodes = 2;
  int responder_processes = 2;
  double interval = 0.05, timeout = 0.25;
  long rounds = 1000;
  std::string outage_model = "window:1000";
  bool no_sessions = false;
  FailureSpec failures;
  double freeze_round = 50;
  std::string swf;
  int jobs = 200;
  double load = 0.9;
  int max_tasks = 0;
  std::string strategies = "default-slurm,tofa,auto,mc1x1,snake";
  std::string pattern = "stencil";
  std::string stream_outage = "estimate";
  std::uint64_t seed = 1;
  std::string dir, json, charts;
  double limit = 1200;
};

std::string make_work_dir(const std::string& wanted) {
  std::string dir = wanted;
  if (dir.empty()) {
    char pattern[] = "/tmp/tofa-harness.XXXXXX";
    if (!::mkdtemp(pattern)) throw tofa::Error("cannot create a work directory in /tmp");
    dir = pattern;
  }
  ::mkdir(dir.c_str(), 0755);
  ::chmod(dir.c_str(), 0755);
  for (const char* sub : {"/ready", "/log", "/state", "/graphs", "/spool"})
    ::mkdir((dir + sub).c_str(), 0755);
  return dir;
}

std::string map_worker_path() {
  if (const char* env = std::getenv("TOFA_MAP_WORKER")) return env;
  const std::string build = build_tree_root();
  return build.empty() ? TOFA_MAP_WORKER : build + "/tools/tofa-map-worker";
}

std::string charts_script() {
  const std::string build = build_tree_root();
  return build.empty() ? TOFA_HARNESS_CHARTS : build + "/scripts/harness-charts.py";
}

void raise_open_file_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

void pin_outages(const std::vector<std::string>& names, const std::vector<double>& outage) {
  std::vector<const char*> pointers;
  for (const std::string& name : names) pointers.push_back(name.c_str());
  char err[1024];
  if (tofa_service_set_outages(pointers.data(), outage.data(), static_cast<int>(names.size()), err,
                               sizeof err) != TOFA_OK)
    throw tofa::Error(std::string("pinning the outage probabilities: ") + err);
}

std::vector<StreamJob> job_stream(const RunOptions& o, const tofa::Topology& topology, Json* about) {
  if (!o.swf.empty()) {
    SwfTrace trace = read_swf(o.swf);
    *about = {{"source", o.swf}, {"jobs", trace.jobs.size()}, {"skipped", trace.skipped.total()}};
    return trace.jobs;
  }
  JobStreamConfig config;
  config.jobs = o.jobs;
  config.machine_slots = static_cast<long long>(topology.node_count()) * topology.cores_per_node();
  config.max_tasks = o.max_tasks > 0 ? o.max_tasks : std::max(1, static_cast<int>(config.machine_slots / 4));
  config.load = o.load;
  config.seed = o.seed;
  *about = {{"source", "generated"}, {"jobs", o.jobs}, {"load", o.load}, {"max_tasks", config.max_tasks}};
  return generate_jobs(config);
}

// long: the harness's phases in order, sharing the work directory and processes.
int run(const RunOptions& o) {
  const auto run_started = std::chrono::steady_clock::now();
  raise_open_file_limit();
  std::string spec = o.topology + (o.cores > 1 ? ":cores=" + std::to_string(o.cores) : "");
  tofa::Topology topology = tofa::Topology::from_spec(spec);
  if (!o.conf.empty()) {  // the administrator's machine, renamed h00000...
    const tofa::Topology theirs = tofa::service::read_tofa_conf(o.conf).topology;
    topology = tofa::Topology(theirs.dims(), theirs.wrap(), theirs.cores_per_node());
    spec = o.conf;
  }
  const int n = topology.node_count();
  if (o.spank_nodes < 0 || o.spank_nodes >= n) throw tofa::Error("--spank-nodes must be below the node count");
  const std::string dir = make_work_dir(o.dir);
  std::fprintf(stderr, "tofa-harness: %d nodes (%s), work directory %s\n", n, spec.c_str(), dir.c_str());

  Munged munged(dir + "/munge");
  ClusterLayout layout;
  layout.node_count = n;
  layout.spank_nodes = o.spank_nodes;
  layout.responder_groups = std::max(1, std::min(o.responder_processes, n - o.spank_nodes));
  layout.base_port = free_base_port(layout.port_offset, o.spank_nodes + layout.responder_groups, o.seed);
  ServiceConf service;
  service.service_port = free_port();
  service.heartbeat_interval = o.interval;
  service.heartbeat_timeout = o.timeout;
  service.outage_model = o.outage_model;
  service.map_worker = map_worker_path();
  service.sessions = !o.no_sessions;
  write_cluster_files(dir, topology, layout, service, munged.socket());

  const PluginPaths paths = find_plugin_paths();
  PluginHost host(paths.host);
  host.init(dir + "/slurm.conf", dir + "/log/host.log");  // forks: before any thread

  FailureSpec failures = o.failures;
  failures.seed = o.seed;
  FailureModel model(failures, n);
  std::vector<pid_t> children;
  struct Stop {
    std::vector<pid_t>& children;
    ~Stop() { for (pid_t child : children) stop_child(child); }
  } stop{children};
  start_node_processes(layout, dir, munged.socket(), failures, o.freeze_round, &children);

  host.start_ctld(paths.plugin("slurmctld_tofa"));
  struct StopService {  // before munged and the children go, on every path
    const PluginHost& host;
    bool stopped = false;
    void stop() {
      if (!stopped) host.stop_ctld();
      stopped = true;
    }
    ~StopService() { stop(); }
  } stop_service{host};
  for (int i = 0; i < 500 && !tofa_service_running(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  if (!tofa_service_running()) throw tofa::Error("slurmctld_tofa.so did not start the service; see " + dir + "/log/host.log");

  std::vector<std::string> names;
  for (int node = 0; node < n; ++node) names.push_back(node_name(node, n));
  HeartbeatPhaseOptions phase;
  phase.rounds = o.rounds;
  phase.freeze_round = o.freeze_round;
  phase.limit_seconds = o.limit;
  std::vector<double> estimates;
  Json heartbeat = run_heartbeat_phase(phase, names, model, munged, &estimates);

  // The stream sees fixed outage probabilities (an administrator's
  // set-outage on every node): the estimates at the end of the heartbeat
  // phase, or the truth; so a seeded stream reproduces exactly.
  std::vector<double> truth = model.truths();
  const std::vector<double>& pinned = o.stream_outage == "truth" ? truth : estimates;
  if (pinned.size() != names.size())
    throw tofa::Error("the heartbeat phase ended with outage estimates for " +
                      std::to_string(pinned.size()) + " of " + std::to_string(names.size()) +
                      " nodes (did it reach --limit before --rounds?)");
  pin_outages(names, pinned);
  long above_threshold = 0;
  for (double p : pinned) above_threshold += p > tofa_service_outage_threshold();
  JobGraphs graphs(o.pattern, dir + "/graphs", [&](const std::string& path) {
    return host.upload_matrix(paths.plugin("tofa_loadmatrix"), path);
  });
  Json stream_about;
  const std::vector<StreamJob> jobs = job_stream(o, topology, &stream_about);
  // What auto's mappings of this stream cost at least (auto spends its
  // budget), against the span of its submissions: the harness replays that
  // span in minutes, real time does not.
  double budgets = 0, first_submit = INFINITY, last_submit = 0;
  for (const StreamJob& job : jobs) {
    budgets += tofa::scaled_placement_budget(tofa::service::ServiceSettings{}.placement_budget_ms, job.tasks);
    first_submit = std::min(first_submit, job.submit);
    last_submit = std::max(last_submit, job.submit);
  }
  stream_about["auto_budget_seconds_sum"] = budgets;
  stream_about["submit_span_seconds"] = jobs.empty() ? 0.0 : last_submit - first_submit;
  Json strategies = Json::array();
  std::stringstream list(o.strategies);
  for (std::string strategy; std::getline(list, strategy, ',');)
    if (!strategy.empty())
      strategies.push_back(
          run_stream(strategy, topology, jobs, truth, graphs, dir + "/jobs-" + strategy + ".csv"));

  heartbeat["mean_estimate"] = estimates_by_class(model, estimates);
  Json report{
      {"tool", "tofa-harness"},
      {"cluster", {{"topology", spec}, {"nodes", n}, {"cores_per_node", topology.cores_per_node()},
                   {"responder_processes", layout.responder_groups}, {"spank_nodes", o.spank_nodes},
                   {"heartbeat_interval", o.interval}, {"heartbeat_timeout", o.timeout},
                   {"outage_model", o.outage_model}, {"sessions", !o.no_sessions}}},
      {"plugins", {{"host", paths.host}, {"slurm", host.slurm_version()},
                   {"loaded", {"slurmctld_tofa.so", "tofa_nodestate.so", "tofa_loadmatrix.so"}},
                   {"graphs_uploaded", graphs.uploaded()}}},
      {"failures", failure_report(model, n, o.freeze_round)},
      {"heartbeat", heartbeat},
      {"stream", stream_about},
      {"pattern", graphs.pattern()},
      {"stream_outage", o.stream_outage},
      {"nodes_above_outage_threshold", above_threshold},
      {"strategies", strategies}};

  stop_service.stop();
  for (pid_t child : children) stop_child(child);
  children.clear();
  report["failures"]["events"] = failure_events(dir, layout.responder_groups);
  report["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_started).count();
  // The service runs in this process (as in slurmctld), beside Slurm's node
  // table that libslurmfull built here.
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  report["host_max_rss_mib"] = static_cast<double>(usage.ru_maxrss) / 1024;
  const std::string json_path = o.json.empty() ? dir + "/harness.json" : o.json;
  std::ofstream(json_path) << report.dump(2) << "\n";
  std::fprintf(stderr, "tofa-harness: report %s\n", json_path.c_str());
  print_strategy_table(strategies);
  if (!o.charts.empty()) write_charts(charts_script(), json_path, o.charts);
  return 0;
}

int run_trace(int jobs, int slots, int max_tasks, double load, std::uint64_t seed, const std::string& out) {
  JobStreamConfig config;
  config.jobs = jobs;
  config.machine_slots = slots;
  config.max_tasks = max_tasks > 0 ? max_tasks : slots;
  config.load = load;
  config.seed = seed;
  write_swf_file(out, generate_jobs(config),
                 {"tofa-harness trace --jobs " + std::to_string(jobs) + " --slots " +
                  std::to_string(slots) + " --seed " + std::to_string(seed)},
                 slots);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv, argv + argc);
    if (argc > 1 && args[1] == "responders")
      return run_responder_group(parse_responder_group_argv(args));
    if (argc == 6 && args[1] == "slurmd" && args[2] == "-D" && args[3] == "-N")
      return run_simulated_slurmd(args[5], args[4]);

    CLI::App app{"tofa-harness: the tofa plugins outside slurmctld, on a synthetic cluster with a job stream"};
    app.require_subcommand(1);
    RunOptions o;
    CLI::App* run_app = app.add_subcommand("run", "heartbeat a synthetic cluster, then run a job stream");
    run_app->add_option("--topology", o.topology, "torus:AxBxC or mesh:... (default torus:8x8x8)");
    run_app->add_option("--conf", o.conf, "an existing tofa.conf: its Dims, Wrap and CoresPerNode instead of --topology");
    run_app->add_option("--cores", o.cores, "CoresPerNode")->check(CLI::Range(1, 1024));
    run_app->add_option("--spank-nodes", o.spank_nodes, "nodes answered by tofa_nodestate.so, one process each (default 2)")->check(CLI::Range(0, 64));
    run_app->add_option("--responder-processes", o.responder_processes, "processes answering for the other nodes (default 2)")->check(CLI::Range(1, 256));
    run_app->add_option("--interval", o.interval, "HeartbeatInterval, seconds (default 0.05)")->check(CLI::PositiveNumber);
    run_app->add_option("--timeout", o.timeout, "HeartbeatTimeout, seconds (default 0.25: loopback)")->check(CLI::PositiveNumber);
    run_app->add_option("--rounds", o.rounds, "heartbeat rounds to observe (default 1000)")->check(CLI::Range(1L, 100000000L));
    run_app->add_option("--outage-model", o.outage_model, "OutageModel (default window:1000)");
    run_app->add_flag("--no-sessions", o.no_sessions, "HeartbeatSessions=no: every heartbeat over TCP with munge");
    run_app->add_option("--failing", o.failures.failing_fraction, "fraction of nodes that fail now and then (default 0.05)")->check(CLI::Range(0.0, 1.0));
    run_app->add_option("--outage-min", o.failures.min_outage, "their outage probability, lowest (0.01)");
    run_app->add_option("--outage-max", o.failures.max_outage, "and highest (0.3)");
    run_app->add_option("--repair-rounds", o.failures.repair_rounds, "mean rounds an outage lasts (1)");
    run_app->add_option("--frozen", o.failures.frozen_fraction, "fraction of responders that freeze (0.002)")->check(CLI::Range(0.0, 1.0));
    run_app->add_option("--freeze-round", o.freeze_round, "round from which they stay silent (50)");
    run_app->add_option("--drop", o.failures.drop_rate, "probability a heartbeat exchange is lost (0.001)")->check(CLI::Range(0.0, 0.99));
    run_app->add_option("--swf", o.swf, "a Standard Workload Format trace (else a generated stream)");
    run_app->add_option("--jobs", o.jobs, "generated jobs (default 200)")->check(CLI::Range(1, 10000000));
    run_app->add_option("--load", o.load, "offered load of the generated stream (0.9)")->check(CLI::PositiveNumber);
    run_app->add_option("--max-tasks", o.max_tasks, "largest generated job (default a quarter of the CPUs)");
    run_app->add_option("--strategies", o.strategies, "comma list: any tofa-map strategy, mc1x1, snake");
    run_app->add_option("--pattern", o.pattern, "every job's communication: stencil (default), chung-mesh, power-law")
        ->check(CLI::IsMember({"stencil", "chung-mesh", "power-law"}));
    run_app->add_option("--stream-outage", o.stream_outage, "estimate (default) or truth: what placements see")->check(CLI::IsMember({"estimate", "truth"}));
    run_app->add_option("--seed", o.seed, "seed of the failure model and the generated stream (1)");
    run_app->add_option("--dir", o.dir, "work directory (default a new /tmp/tofa-harness.*)");
    run_app->add_option("--json", o.json, "report file (default DIR/harness.json)");
    run_app->add_option("--charts", o.charts, "also write PNG and SVG charts into this directory");
    run_app->add_option("--limit", o.limit, "seconds the heartbeat phase may take at most (1200)");

    int jobs = 200, slots = 512, max_tasks = 0;
    double load = 0.9;
    std::uint64_t seed = 1;
    std::string out;
    CLI::App* trace = app.add_subcommand("trace", "write a generated job stream as an SWF trace");
    trace->add_option("--jobs", jobs, "jobs (200)");
    trace->add_option("--slots", slots, "CPUs of the machine (512)");
    trace->add_option("--max-tasks", max_tasks, "largest job (default all CPUs)");
    trace->add_option("--load", load, "offered load (0.9)");
    trace->add_option("--seed", seed, "seed (1)");
    trace->add_option("-o,--output", out, "SWF file")->required();
    CLI11_PARSE(app, argc, argv);
    if (trace->parsed()) return run_trace(jobs, slots, max_tasks, load, seed, out);
    if (::geteuid() != 0)
      throw tofa::Error("run needs root: it starts a private munged and the plugins run as SlurmUser=root");
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tofa-harness: error: %s\n", e.what());
    return 1;
  }
}
