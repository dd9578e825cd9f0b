// tofa-sim: the TOFA seed's SimGrid evaluation (platforms, route check,
// cross-traffic measurement, the SMPI applications and their graphs,
// simulated runs, and batches under node failures).
#include <CLI/CLI.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "app_args.hpp"
#include "base/error.hpp"
#include "batch.hpp"
#include "crosstraffic.hpp"
#include "failure_draw.hpp"
#include "graph/generators.hpp"
#include "hostfile.hpp"
#include "map/mapper.hpp"
#include "metrics/metrics.hpp"
#include "platform.hpp"
#include "routes.hpp"
#include "simulate.hpp"
#include "smpi_run.hpp"
#include "trace_resolve.hpp"
#include "work_dir.hpp"

#ifndef TOFA_SIM_APPDIR
#define TOFA_SIM_APPDIR "/usr/local/libexec/tofa"
#endif
#ifndef TOFA_SIM_BUILD_ROOT
#define TOFA_SIM_BUILD_ROOT ""
#endif
#ifndef TOFA_MAP
#define TOFA_MAP "/usr/local/bin/tofa-map"
#endif
#ifndef TOFA_SMPIRUN
#define TOFA_SMPIRUN "smpirun"
#endif

namespace {

using tofa::sim::PlatformOptions;

struct PlatformArgs {
  std::string topology;
  std::string routing;  // empty: the topology's default
  std::string speed = "6Gf";
  std::string bandwidth = "10Gbps";
  std::string latency = "1us";
  std::string sharing = "shared";

  void add_to(CLI::App& command) {
    command.add_option("--topology", topology, "topology file (tofa.conf) or torus:8x8x8")
        ->required();
    command.add_option("--routing", routing,
                       "zone (SimGrid's TorusZone, full tori), explicit (every route listed) or "
                       "direct (a link between every two nodes: the floor of any placement); "
                       "default: zone for a full torus");
    command.add_option("--speed", speed, "host speed (default 6Gf)");
    command.add_option("--bandwidth", bandwidth, "link bandwidth per direction (default 10Gbps)");
    command.add_option("--latency", latency, "link latency (default 1us)");
    command.add_option("--link-sharing", sharing,
                       "shared (default: one link both ways, SimGrid's default) or split-duplex");
  }

  PlatformOptions options(const tofa::Topology& topo) const {
    PlatformOptions o;
    o.speed = tofa::sim::parse_quantity(speed, tofa::sim::Quantity::Speed);
    o.bandwidth = tofa::sim::parse_quantity(bandwidth, tofa::sim::Quantity::Bandwidth);
    o.latency = tofa::sim::parse_quantity(latency, tofa::sim::Quantity::Latency);
    o.routing =
        routing.empty() ? tofa::sim::default_routing(topo) : tofa::sim::parse_routing(routing);
    o.sharing = tofa::sim::parse_link_sharing(sharing);
    return o;
  }
};

using tofa::sim::WorkDir;

void write_platform_file(const std::string& path, const tofa::Topology& topology,
                         const PlatformOptions& options) {
  std::ofstream out(path);
  if (!out) throw tofa::Error("cannot write '" + path + "'");
  tofa::sim::write_platform(out, topology, options);
}

int platform_command(const PlatformArgs& args, const std::string& output) {
  const tofa::Topology topology = tofa::load_topology(args.topology);
  const PlatformOptions options = args.options(topology);
  if (output.empty() || output == "-") {
    tofa::sim::write_platform(std::cout, topology, options);
  } else {
    write_platform_file(output, topology, options);
  }
  return 0;
}

int routes_command(const PlatformArgs& args, int show, const std::string& given_platform) {
  const tofa::Topology topology = tofa::load_topology(args.topology);
  PlatformOptions options = args.options(topology);
  options.sharing = tofa::sim::LinkSharing::SplitDuplex;  // the check names each direction's link
  WorkDir work("");
  std::string platform = given_platform;
  if (platform.empty()) {
    platform = work.file("platform.xml");
    write_platform_file(platform, topology, options);
  }
  const auto report = tofa::sim::compare_routes(topology, options, platform, show);
  for (const auto& m : report.examples) {
    std::printf("mismatch %s -> %s (latency %g s, library %g s)\n  simgrid:",
                tofa::sim::host_name(m.from).c_str(), tofa::sim::host_name(m.to).c_str(),
                m.simgrid_latency, m.library_latency);
    for (const auto& name : m.simgrid) std::printf(" %s", name.c_str());
    std::printf("\n  library:");
    for (const auto& name : m.library) std::printf(" %s", name.c_str());
    std::printf("\n");
  }
  std::printf("routes: %s, %s routing: %lld ordered pairs, %lld mismatches\n",
              topology.describe().c_str(),
              tofa::sim::routing_name(options.routing).c_str(), report.pairs,
              report.mismatches);
  return report.mismatches == 0 ? 0 : 1;
}

int crosstraffic_command(const PlatformArgs& args, double bytes, int max_hops) {
  const tofa::Topology topology = tofa::load_topology(args.topology);
  PlatformOptions options = args.options(topology);
  // the reverse flows must share no link direction with A
  options.sharing = tofa::sim::LinkSharing::SplitDuplex;
  WorkDir work("");
  const std::string platform = work.file("platform.xml");
  write_platform_file(platform, topology, options);
  const auto rows = tofa::sim::measure_crosstraffic(topology, platform, bytes, max_hops);
  std::printf(
      "flow A: %.0f bytes from node 0 over h links along dimension 0; reverse flows: "
      "one per link of A, opposite direction, of A's size or 10x; SMPI network model\n",
      bytes);
  std::printf("%-12s %4s %12s %18s %9s %18s %9s\n", "crosstraffic", "h", "A alone (s)",
              "A + equal rev. (s)", "slowdown", "A + long rev. (s)", "slowdown");
  for (const auto& row : rows)
    std::printf("%-12s %4d %12.6f %18.6f %8.2fx %18.6f %8.2fx\n", row.crosstraffic ? "on" : "off",
                row.hops, row.alone, row.equal_reverse, row.equal_reverse / row.alone,
                row.long_reverse, row.long_reverse / row.alone);
  return 0;
}

struct FailureArgs {
  std::string topology;
  std::string graph;
  std::string hostfile;
  tofa::sim::FailureModel model;
  int instances = 100;
  int batches = 10;
  std::uint64_t seed = 1;
};

/// The seed's batches without simulation: which instances abort.
int failures_command(const FailureArgs& args) {
  const tofa::Topology topology = tofa::load_topology(args.topology);
  const tofa::CommGraph graph = tofa::read_graph(args.graph);
  const std::vector<int> placement =
      tofa::sim::read_hostfile(args.hostfile, topology, graph.task_count());
  const std::vector<char> in_use = tofa::sim::nodes_in_use(topology, graph, placement);
  std::printf("master seed %llu: %d batches of %d instances, n_f = %d, p_f = %g\n",
              static_cast<unsigned long long>(args.seed), args.batches, args.instances,
              args.model.failing_nodes, args.model.outage_probability);
  long long aborted_total = 0;
  for (std::uint64_t batch_seed : tofa::sim::batch_seeds(args.seed, args.batches)) {
    const auto batch =
        tofa::sim::draw_batch(topology.node_count(), args.model, args.instances, batch_seed);
    int aborted = 0;
    for (const auto& failed : batch.failed) aborted += tofa::sim::instance_aborts(in_use, failed);
    aborted_total += aborted;
    std::string nodes;
    for (int node : batch.outage_nodes) nodes += " " + topology.node_name(node);
    std::printf("batch seed %llu: %d of %d instances abort; N_f:%s\n",
                static_cast<unsigned long long>(batch_seed), aborted, args.instances,
                nodes.c_str());
  }
  const long long total = static_cast<long long>(args.batches) * args.instances;
  std::printf("abort ratio %.4f (%lld of %lld)\n",
              total ? static_cast<double>(aborted_total) / static_cast<double>(total) : 0.0,
              aborted_total, total);
  return 0;
}

/// Directories to look for the SMPI applications and tofa-map in: the build
/// tree first when this tofa-sim runs from it, else the installed ones.
std::vector<std::string> search_order(const std::string& installed, const std::string& built) {
  std::string self(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  const std::string root = TOFA_SIM_BUILD_ROOT;
  const bool from_build = !root.empty() && self.compare(0, root.size() + 1, root + "/") == 0;
  if (root.empty()) return {installed};
  return from_build ? std::vector<std::string>{built, installed}
                    : std::vector<std::string>{installed, built};
}

std::string find_app(tofa::sim::AppKind kind, const std::string& given) {
  return tofa::sim::find_app(
      kind, given,
      search_order(TOFA_SIM_APPDIR, std::string(TOFA_SIM_BUILD_ROOT) + "/tools/sim/apps"));
}

std::string find_tofa_map(const std::string& given) {
  if (!given.empty()) return given;
  const std::string installed = TOFA_MAP;
  const std::string directory = installed.substr(0, installed.rfind('/'));
  for (const std::string& dir :
       search_order(directory, std::string(TOFA_SIM_BUILD_ROOT) + "/tools"))
    if (access((dir + "/tofa-map").c_str(), X_OK) == 0) return dir + "/tofa-map";
  return "tofa-map";  // from PATH
}

/// The rank count of an md run defaults to the hostfile's line count.
tofa::sim::AppSpec with_ranks(tofa::sim::AppSpec app, const tofa::Topology& topology,
                              const std::string& hostfile) {
  if (app.kind == tofa::sim::AppKind::Md && app.ranks == 0)
    app.ranks = static_cast<int>(tofa::sim::read_hostfile(hostfile, topology, -1).size());
  return app;
}

int graph_command(const tofa::sim::AppArgs& args, const std::string& output) {
  const tofa::CommGraph graph = tofa::sim::app_graph(args.spec());
  if (output.empty() || output == "-") {
    tofa::write_dense_matrix(std::cout, graph);
    return 0;
  }
  std::ofstream out(output);
  tofa::write_dense_matrix(out, graph);
  if (!out.flush()) throw tofa::Error("cannot write '" + output + "'");
  return 0;
}

/// Resolves a recording for the replayer and says what it holds.
int trace_command(const std::string& trace, const std::string& window, const std::string& matrix) {
  tofa::sim::AppSpec spec;
  spec.trace = trace;
  spec.trace_window = window;
  const std::string replay = tofa::sim::replay_dir(spec);
  const tofa::sim::ResolvedTrace resolved = tofa::sim::resolve_trace(
      trace + ".trace", replay, tofa::sim::parse_trace_window(window));
  std::uint64_t bytes = 0;
  for (std::uint64_t b : resolved.bytes) bytes += b;
  std::printf("%s: %d ranks, %llu events, %llu collectives, %.6f CPU seconds, %llu bytes\n",
              replay.c_str(), resolved.ranks, static_cast<unsigned long long>(resolved.events),
              static_cast<unsigned long long>(resolved.collectives), resolved.cpu_seconds,
              static_cast<unsigned long long>(bytes));
  if (resolved.cut_messages)
    std::printf("%llu messages crossing the window's bounds left out\n",
                static_cast<unsigned long long>(resolved.cut_messages));
  std::printf("rank 0's trace lines between barriers of all ranks (a window A:B replays gap B):");
  for (std::uint64_t gap : resolved.barrier_gaps)
    std::printf(" %llu", static_cast<unsigned long long>(gap));
  std::printf("\n");
  if (matrix.empty()) return 0;
  std::ofstream out(matrix);
  out << resolved.ranks << '\n';
  for (int i = 0; i < resolved.ranks; ++i)
    for (int j = 0; j < resolved.ranks; ++j)
      out << resolved.bytes[static_cast<std::size_t>(i) * resolved.ranks + j]
          << (j + 1 < resolved.ranks ? ' ' : '\n');
  if (!out.flush()) throw tofa::Error("cannot write '" + matrix + "'");
  return 0;
}

struct ShareArgs {
  std::vector<std::string> jobs;  // TRACE[@A:B]=HOSTFILE
  bool crosstraffic = true;
  std::vector<std::string> cfg;
  double cpu_speed = 6e9;
  std::string smpirun = TOFA_SMPIRUN;
  std::string keep;
};

/// Several recorded jobs at once, each on its own nodes: one SMPI world in
/// which tofa-sim-trace gives every job its communicator.
int share_command(const PlatformArgs& platform_args, const ShareArgs& args) {
  const tofa::Topology topology = tofa::load_topology(platform_args.topology);
  const PlatformOptions options = platform_args.options(topology);
  std::vector<int> placement;
  std::vector<std::string> dirs;
  tofa::sim::AppSpec app;
  app.kind = tofa::sim::AppKind::Trace;
  app.cpu_speed = args.cpu_speed;
  std::vector<char> used(static_cast<std::size_t>(topology.node_count()), 0);
  for (const std::string& job : args.jobs) {
    const auto equals = job.rfind('=');
    if (equals == std::string::npos)
      throw tofa::Error("--job '" + job + "': expected TRACE[@A:B]=HOSTFILE");
    const std::string trace = job.substr(0, equals), hostfile = job.substr(equals + 1);
    const auto at = trace.rfind('@');
    app.trace = trace.substr(0, at);
    app.trace_window = at == std::string::npos ? "" : trace.substr(at + 1);
    tofa::sim::prepare_app(app);
    const int ranks = tofa::sim::app_graph(app).task_count();
    for (int node : tofa::sim::read_hostfile(hostfile, topology, ranks)) {
      if (used[static_cast<std::size_t>(node)]++)
        throw tofa::Error(hostfile + ": node " + topology.node_name(node) +
                          " is another job's (jobs share the torus, not nodes)");
      placement.push_back(node);
    }
    dirs.push_back(tofa::sim::app_arguments(app).back());  // the job's replay, absolute
  }
  if (dirs.empty()) throw tofa::Error("share: give at least one --job");
  WorkDir work(args.keep);
  tofa::sim::SmpiCommand command;
  command.smpirun = args.smpirun;
  command.platform = work.file("platform.xml");
  write_platform_file(command.platform, topology, options);
  command.hostfile = work.file("hosts");
  tofa::sim::write_smpi_hostfile(command.hostfile, placement);
  command.ranks = static_cast<int>(placement.size());
  command.cfg = tofa::sim::simulation_settings(app, args.crosstraffic, args.cfg);
  command.app = find_app(tofa::sim::AppKind::Trace, "");
  command.args = {"-f", std::to_string(args.cpu_speed)};
  command.args.insert(command.args.end(), dirs.begin(), dirs.end());
  command.work_dir = work.path();
  const tofa::sim::SmpiOutcome outcome = tofa::sim::run_smpi(command);
  if (outcome.exit_status != 0)
    throw tofa::Error("smpirun failed with exit status " + std::to_string(outcome.exit_status) +
                      "; its output:\n" + outcome.output);
  tofa::sim::output_value(outcome.output, "tofa-sim-trace:", "time");  // checks the line is there
  std::istringstream lines(outcome.output);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("tofa-sim-trace:", 0) == 0) std::printf("%s\n", line.c_str());
  return 0;
}

struct RunArgs {
  tofa::sim::AppArgs app;
  std::string hostfile;
  bool crosstraffic = true;
  std::vector<std::string> cfg;
  std::string app_binary;
  std::string smpirun = TOFA_SMPIRUN;
  std::string keep;
  bool verbose = false;
};

int run_command(const PlatformArgs& platform_args, const RunArgs& args) {
  const tofa::Topology topology = tofa::load_topology(platform_args.topology);
  const PlatformOptions options = platform_args.options(topology);
  const tofa::sim::AppSpec app = with_ranks(args.app.spec(), topology, args.hostfile);
  // The graph first: a bad matrix gets the library's precise errors before
  // a simulation starts, and its size checks the hostfile's.
  const tofa::CommGraph graph = tofa::sim::app_graph(app);
  const std::vector<int> placement =
      tofa::sim::read_hostfile(args.hostfile, topology, graph.task_count());

  WorkDir work(args.keep);
  tofa::sim::Simulation simulation;
  simulation.app = app;
  simulation.program = find_app(app.kind, args.app_binary);
  simulation.smpirun = args.smpirun;
  simulation.platform = work.file("platform.xml");
  write_platform_file(simulation.platform, topology, options);
  simulation.cfg = args.cfg;
  simulation.crosstraffic = args.crosstraffic;
  simulation.work_dir = work.path();
  work.file(simulation.hostfile_name);
  const tofa::sim::SimulationResult result = tofa::sim::simulate(simulation, placement);
  if (args.verbose) std::fputs(result.output.c_str(), stderr);
  std::printf("%s\n", result.line.c_str());
  std::printf("simulated time: %.9f s (%d ranks, %s, %s, %s links, crosstraffic %s)\n",
              result.time, graph.task_count(), tofa::sim::describe(app).c_str(),
              topology.describe().c_str(), tofa::sim::link_sharing_name(options.sharing).c_str(),
              args.crosstraffic ? "on" : "off");
  return 0;
}

struct BatchArgs {
  tofa::sim::AppArgs app;
  tofa::sim::BatchSettings settings;
  std::string app_binary;
  std::string tofa_map;
  bool quick = false;
};

int batch_command(const PlatformArgs& platform_args, BatchArgs& args, bool batches_given,
                  bool instances_given) {
  tofa::sim::BatchSettings& s = args.settings;
  s.topology = platform_args.topology;
  const tofa::Topology topology = tofa::load_topology(s.topology);
  s.platform = platform_args.options(topology);
  s.app = args.app.spec();
  if (s.hostfile.empty() == s.strategy.empty())
    throw tofa::Error("batch: give either --hostfile or --strategy");
  if (s.app.kind == tofa::sim::AppKind::Md && s.app.ranks == 0) {
    if (s.hostfile.empty()) throw tofa::Error("batch: md with --strategy needs --ranks");
    s.app = with_ranks(s.app, topology, s.hostfile);
  }
  s.program = find_app(s.app.kind, args.app_binary);
  if (!s.strategy.empty()) s.tofa_map = find_tofa_map(args.tofa_map);
  if (args.quick) {
    if (!batches_given) s.batches = 3;
    if (!instances_given) s.instances = 20;
  }
  return tofa::sim::batch_command(s);
}

}  // namespace

// long: the command line of every subcommand, option by option.
int main(int argc, char** argv) {
  CLI::App app{"SimGrid evaluation of placements on a torus or mesh (the TOFA seed's section 5)."};
  app.require_subcommand(1);

  PlatformArgs platform_args;
  std::string output;
  auto* platform = app.add_subcommand("platform", "write the SimGrid platform file");
  platform_args.add_to(*platform);
  platform->add_option("-o,--output", output, "file to write (default standard output)");

  PlatformArgs routes_args;
  int show = 10;
  std::string given_platform;
  auto* routes = app.add_subcommand(
      "routes", "compare SimGrid's route with the library's R(u,v) for every ordered pair");
  routes_args.add_to(*routes);
  routes->add_option("--show", show, "print at most this many mismatches (default 10)")
      ->check(CLI::NonNegativeNumber);
  routes->add_option("--platform", given_platform,
                     "check this platform file instead of writing one (hosts n<id>, links "
                     "named as tofa-sim platform names them)");

  PlatformArgs cross_args;
  double bytes = 1e8;
  int max_hops = 4;
  auto* cross = app.add_subcommand(
      "crosstraffic", "measure how SimGrid's cross-traffic model slows multi-hop flows");
  cross_args.add_to(*cross);
  cross->add_option("--bytes", bytes, "size of each flow (default 1e8)")
      ->check(CLI::PositiveNumber);
  cross->add_option("--max-hops", max_hops, "longest flow A (default 4)")
      ->check(CLI::Range(1, 1 << 20));

  tofa::sim::AppArgs graph_args;
  std::string graph_output;
  auto* graph_cmd = app.add_subcommand(
      "graph", "write an application's communication matrix (for tofa-map and the strategies)");
  graph_args.add_to(*graph_cmd);
  graph_cmd->add_option("-o,--output", graph_output, "file to write (default standard output)");

  std::string trace_prefix, trace_window, trace_matrix;
  auto* trace_cmd = app.add_subcommand(
      "trace", "make a tofa-profile --trace recording replayable (DIR/NAME.replay/)");
  trace_cmd->add_option("--trace", trace_prefix, "the recording: tofa-profile's DIR/NAME")
      ->required();
  trace_cmd->add_option("--window", trace_window,
                        "replay between barriers A and B of all ranks only (A:B)");
  trace_cmd->add_option("--matrix", trace_matrix,
                        "also write the bytes the replay sends, rank to rank (dense matrix)");

  PlatformArgs share_platform;
  ShareArgs share_args;
  auto* share = app.add_subcommand(
      "share", "simulate several recorded jobs at once on their own nodes of one machine");
  share_platform.add_to(*share);
  share->add_option("--job", share_args.jobs,
                    "a job: tofa-profile's DIR/NAME, @A:B for a trace window, =HOSTFILE "
                    "(repeatable, in world rank order)")
      ->required();
  share->add_option("--crosstraffic", share_args.crosstraffic,
                    "SimGrid's network/crosstraffic: on (default) or off")
      ->transform(CLI::Transformer(std::map<std::string, bool>{{"on", true}, {"off", false}}));
  share->add_option("--cpu-speed", share_args.cpu_speed,
                    "flop/s that replay the recorded CPU time as measured (default 6e9)");
  share->add_option("--cfg", share_args.cfg, "extra SimGrid setting NAME:VALUE (repeatable)");
  share->add_option("--keep", share_args.keep, "keep the work files in this directory");

  PlatformArgs run_platform;
  RunArgs run_args;
  auto* run = app.add_subcommand("run", "simulate one run of an application with a placement");
  run_platform.add_to(*run);
  run_args.app.add_to(*run);
  run->add_option("--hostfile", run_args.hostfile, "placement: line i = node of rank i")
      ->required();
  run->add_option("--crosstraffic", run_args.crosstraffic,
                  "SimGrid's network/crosstraffic: on (default, SimGrid's default) or off")
      ->transform(CLI::Transformer(std::map<std::string, bool>{{"on", true}, {"off", false}}));
  run->add_option("--cfg", run_args.cfg, "extra SimGrid setting NAME:VALUE (repeatable)");
  run->add_option("--app-binary", run_args.app_binary,
                  "the SMPI application's executable (default: the built or installed one)");
  run->add_option("--smpirun", run_args.smpirun, "smpirun to use");
  run->add_option("--keep", run_args.keep, "write the platform and hostfile here and keep them");
  run->add_option("--sent-matrix", run_args.app.spec_defaults.sent_matrix,
                  "dt, md: write the bytes each rank sent to each other rank here (comm.mat)");
  run->add_flag("-v,--verbose", run_args.verbose, "show smpirun's output");

  PlatformArgs batch_platform;
  BatchArgs batch_args;
  tofa::sim::BatchSettings& bs = batch_args.settings;
  bs.smpirun = TOFA_SMPIRUN;
  std::string abort_cost = "full";
  auto* batch = app.add_subcommand(
      "batch", "batches of instances under node failures, aborted runs re-run (seed 5.2)");
  batch_platform.add_to(*batch);
  batch_args.app.add_to(*batch);
  batch->add_option("--hostfile", bs.hostfile, "one placement for every batch");
  batch->add_option("--strategy", bs.strategy,
                    "or: tofa-map --strategy NAME per batch, seeing N_f at p_f as --faults");
  batch->add_option("--map-arg", bs.map_args, "extra tofa-map argument (repeatable)")
      ->allow_extra_args(false);
  batch->add_option("--tofa-map", batch_args.tofa_map, "tofa-map to use");
  batch
      ->add_option("--failing-nodes", bs.model.failing_nodes,
                   "n_f, nodes drawn per batch with outage probability p_f (default 16)")
      ->check(CLI::NonNegativeNumber);
  batch->add_option("--outage-nodes", bs.outage_nodes, "N_f given instead (names, repeatable)")
      ->delimiter(',');
  batch
      ->add_option("--outage", bs.model.outage_probability,
                   "p_f, their outage probability (default 0.02)")
      ->check(CLI::Range(0.0, 1.0));
  auto* batches_option = batch->add_option("--batches", bs.batches, "batches (default 10)")
                             ->check(CLI::Range(1, 1000000));
  auto* instances_option =
      batch->add_option("--instances", bs.instances, "instances per batch (default 100)")
          ->check(CLI::Range(1, 100000000));
  batch->add_flag("--quick", batch_args.quick, "3 batches of 20 instances unless given");
  batch->add_option("--seed", bs.seed, "master seed (default 1)");
  batch
      ->add_option("--abort-cost", abort_cost,
                   "full (the seed: a whole run), uniform (a uniform point of the run) or start")
      ->check(CLI::IsMember({"full", "uniform", "start"}));
  batch->add_option("--max-aborts", bs.max_aborts, "aborted runs allowed per instance (10000)")
      ->check(CLI::NonNegativeNumber);
  batch->add_option("-j,--jobs", bs.jobs, "parallel simulations (default: the core count)")
      ->check(CLI::NonNegativeNumber);
  batch->add_option("--json", bs.json, "write every seed, draw and result here");
  batch->add_option("--crosstraffic", bs.crosstraffic,
                    "SimGrid's network/crosstraffic: on (default, SimGrid's default) or off")
      ->transform(CLI::Transformer(std::map<std::string, bool>{{"on", true}, {"off", false}}));
  batch->add_option("--cfg", bs.cfg, "extra SimGrid setting NAME:VALUE (repeatable)");
  batch->add_option("--fault-free-time", bs.fault_free_time,
                    "the placement's fault-free time in seconds, simulated elsewhere (tofa-sim "
                    "share), instead of simulating it (--hostfile only)")
      ->check(CLI::PositiveNumber);
  batch->add_option("--app-binary", batch_args.app_binary, "the SMPI application's executable");
  batch->add_option("--smpirun", bs.smpirun, "smpirun to use");
  batch->add_option("--keep", bs.keep, "keep the work files (platform, placements) here");

  FailureArgs failure_args;
  auto* failures = app.add_subcommand(
      "failures", "draw the seed's failure batches and count the instances that abort");
  failures->add_option("--topology", failure_args.topology, "topology file or torus:8x8x8")
      ->required();
  failures->add_option("--graph", failure_args.graph, "communication graph")->required();
  failures->add_option("--hostfile", failure_args.hostfile, "placement: line i = node of rank i")
      ->required();
  failures
      ->add_option("--failing-nodes", failure_args.model.failing_nodes,
                   "n_f, nodes with an outage probability per batch (default 16)")
      ->check(CLI::NonNegativeNumber);
  failures
      ->add_option("--outage", failure_args.model.outage_probability,
                   "p_f, their outage probability (default 0.02)")
      ->check(CLI::Range(0.0, 1.0));
  failures->add_option("--instances", failure_args.instances, "instances per batch (default 100)")
      ->check(CLI::NonNegativeNumber);
  failures->add_option("--batches", failure_args.batches, "batches (default 10)")
      ->check(CLI::NonNegativeNumber);
  failures->add_option("--seed", failure_args.seed, "master seed (default 1)");

  CLI11_PARSE(app, argc, argv);
  try {
    if (*platform) return platform_command(platform_args, output);
    if (*routes) return routes_command(routes_args, show, given_platform);
    if (*cross) return crosstraffic_command(cross_args, bytes, max_hops);
    if (*failures) return failures_command(failure_args);
    if (*graph_cmd) return graph_command(graph_args, graph_output);
    if (*share) return share_command(share_platform, share_args);
    if (*trace_cmd) return trace_command(trace_prefix, trace_window, trace_matrix);
    if (*batch) {
      bs.abort_cost = tofa::sim::parse_abort_cost(abort_cost);
      return batch_command(batch_platform, batch_args, batches_option->count() > 0,
                           instances_option->count() > 0);
    }
    return run_command(run_platform, run_args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tofa-sim: %s\n", e.what());
    return 1;
  }
}
