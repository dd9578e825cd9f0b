// tofa-sim: the TOFA seed's SimGrid evaluation (platforms, route check,
// cross-traffic measurement, SMPI replay of a communication matrix).
#include <CLI/CLI.hpp>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "crosstraffic.hpp"
#include "failure_draw.hpp"
#include "hostfile.hpp"
#include "platform.hpp"
#include "routes.hpp"
#include "smpi_run.hpp"
#include "tofa/tofa.hpp"

#ifndef TOFA_SIM_REPLAY
#define TOFA_SIM_REPLAY "/usr/local/libexec/tofa/tofa-sim-replay"
#endif
#ifndef TOFA_SIM_REPLAY_BUILD
#define TOFA_SIM_REPLAY_BUILD ""
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

  void add_to(CLI::App& command) {
    command.add_option("--topology", topology, "topology file (tofa.conf) or torus:8x8x8")
        ->required();
    command.add_option("--routing", routing,
                       "zone (SimGrid's TorusZone, full tori) or explicit (every route listed); "
                       "default: zone for a full torus");
    command.add_option("--speed", speed, "host speed (default 6Gf)");
    command.add_option("--bandwidth", bandwidth, "link bandwidth per direction (default 10Gbps)");
    command.add_option("--latency", latency, "link latency (default 1us)");
  }

  PlatformOptions options(const tofa::Topology& topo) const {
    PlatformOptions o;
    o.speed = tofa::sim::parse_quantity(speed, tofa::sim::Quantity::Speed);
    o.bandwidth = tofa::sim::parse_quantity(bandwidth, tofa::sim::Quantity::Bandwidth);
    o.latency = tofa::sim::parse_quantity(latency, tofa::sim::Quantity::Latency);
    o.routing =
        routing.empty() ? tofa::sim::default_routing(topo) : tofa::sim::parse_routing(routing);
    return o;
  }
};

/// A directory for the run's files: `keep` (created if needed, left in
/// place) or a fresh temporary one, removed with its files on destruction.
class WorkDir {
 public:
  explicit WorkDir(const std::string& keep) : path_(keep), remove_(keep.empty()) {
    if (remove_) {
      const char* base = std::getenv("TMPDIR");
      std::string pattern = std::string(base && *base ? base : "/tmp") + "/tofa-sim.XXXXXX";
      if (mkdtemp(pattern.data()) == nullptr)
        throw tofa::Error("cannot create a temporary directory in " + pattern);
      path_ = pattern;
    } else if (mkdir(path_.c_str(), 0777) != 0 && errno != EEXIST) {
      throw tofa::Error("--keep: cannot create '" + path_ + "': " + std::strerror(errno));
    } else if (access(path_.c_str(), W_OK) != 0) {
      throw tofa::Error("--keep: '" + path_ + "' is not a writable directory");
    }
  }
  ~WorkDir() {
    if (!remove_) return;
    for (const std::string& file : files_) unlink((path_ + "/" + file).c_str());
    rmdir(path_.c_str());
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;

  /// Path of a file of the directory, removed with it.
  std::string file(const std::string& name) {
    files_.push_back(name);
    return path_ + "/" + name;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool remove_;
  std::vector<std::string> files_;
};

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
  const PlatformOptions options = args.options(topology);
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
              options.routing == tofa::sim::Routing::Zone ? "zone" : "explicit", report.pairs,
              report.mismatches);
  return report.mismatches == 0 ? 0 : 1;
}

int crosstraffic_command(const PlatformArgs& args, double bytes, int max_hops) {
  const tofa::Topology topology = tofa::load_topology(args.topology);
  const PlatformOptions options = args.options(topology);
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

struct RunArgs {
  std::string graph;
  std::string hostfile;
  int rounds = 10;
  double flops = 0;
  bool crosstraffic = false;
  std::vector<std::string> cfg;
  std::string app;
  std::string smpirun = TOFA_SMPIRUN;
  std::string keep;
  bool verbose = false;
};

std::string replay_app(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("TOFA_SIM_REPLAY"); env && *env) return env;
  for (const char* path : {TOFA_SIM_REPLAY, TOFA_SIM_REPLAY_BUILD})
    if (*path && access(path, X_OK) == 0) return path;
  throw tofa::Error(std::string("the replayer is not at ") + TOFA_SIM_REPLAY +
                    ": give it with --app or TOFA_SIM_REPLAY");
}

int run_command(const PlatformArgs& platform_args, const RunArgs& args) {
  const tofa::Topology topology = tofa::load_topology(platform_args.topology);
  const PlatformOptions options = platform_args.options(topology);
  // The replayer reads the dense matrix itself; parsing it here first gives
  // the library's precise errors before a simulation starts.
  const tofa::CommGraph graph = tofa::read_graph(args.graph, tofa::GraphFormat::DenseMatrix);
  const std::vector<int> placement =
      tofa::sim::read_hostfile(args.hostfile, topology, graph.task_count());
  const std::string app = replay_app(args.app);

  WorkDir work(args.keep);
  tofa::sim::SmpiCommand command;
  command.smpirun = args.smpirun;
  command.platform = work.file("platform.xml");
  command.hostfile = work.file("hosts");
  write_platform_file(command.platform, topology, options);
  tofa::sim::write_smpi_hostfile(command.hostfile, placement);
  command.ranks = graph.task_count();
  command.cfg = {"smpi/simulate-computation:no",
                 std::string("network/crosstraffic:") + (args.crosstraffic ? "1" : "0")};
  command.cfg.insert(command.cfg.end(), args.cfg.begin(), args.cfg.end());
  command.app = app;
  char* absolute = realpath(args.graph.c_str(), nullptr);
  command.args = {"-r", std::to_string(args.rounds), "-f", std::to_string(args.flops),
                  absolute ? absolute : args.graph};
  free(absolute);
  command.work_dir = work.path();

  const auto outcome = tofa::sim::run_smpi(command);
  double time = 0;
  try {
    if (outcome.exit_status != 0)
      throw tofa::Error("smpirun failed with exit status " + std::to_string(outcome.exit_status));
    time = tofa::sim::output_value(outcome.output, "tofa-sim-replay:", "time");
  } catch (const tofa::Error&) {
    std::fputs(outcome.output.c_str(), stderr);
    throw;
  }
  if (args.verbose) std::fputs(outcome.output.c_str(), stderr);
  std::printf("simulated time: %.9f s (%d ranks, %d rounds, %s, crosstraffic %s)\n", time,
              graph.task_count(), args.rounds, topology.describe().c_str(),
              args.crosstraffic ? "on" : "off");
  return 0;
}

}  // namespace

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

  PlatformArgs run_platform;
  RunArgs run_args;
  auto* run = app.add_subcommand("run", "simulate a communication matrix with a placement");
  run_platform.add_to(*run);
  run->add_option("--graph", run_args.graph, "communication matrix (dense, as tofa-profile writes)")
      ->required();
  run->add_option("--hostfile", run_args.hostfile, "placement: line i = node of rank i")
      ->required();
  run->add_option("--rounds", run_args.rounds, "rounds of the replay (default 10)")
      ->check(CLI::Range(1, 1000000));
  run->add_option("--flops", run_args.flops, "computation per rank and round (default 0)")
      ->check(CLI::NonNegativeNumber);
  run->add_flag("--crosstraffic", run_args.crosstraffic,
                "keep SimGrid's cross-traffic model on (default off)");
  run->add_option("--cfg", run_args.cfg, "extra SimGrid setting NAME:VALUE (repeatable)");
  run->add_option("--app", run_args.app, "the SMPI replayer (default: the installed one)");
  run->add_option("--smpirun", run_args.smpirun, "smpirun to use");
  run->add_option("--keep", run_args.keep, "write the platform and hostfile here and keep them");
  run->add_flag("-v,--verbose", run_args.verbose, "show smpirun's output");

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
    return run_command(run_platform, run_args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tofa-sim: %s\n", e.what());
    return 1;
  }
}
