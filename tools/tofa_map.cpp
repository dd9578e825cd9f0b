// tofa-map: map a communication graph onto a torus with one or all strategies.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "graph/generators.hpp"
#include "graph/patterns/patterns.hpp"
#include "map/mapper.hpp"
#include "map/mims/mims.hpp"
#include "map/portfolio/strategies.hpp"
#include "map/rubik/rubik.hpp"
#include "metrics/interference.hpp"
#include "metrics/metrics.hpp"
#include "placement_svg.hpp"

namespace {

struct Options {
  std::string topology;
  std::string write_graph;
  std::string graph;
  std::string faults;
  std::string strategy = tofa::kDefaultStrategy;
  std::string nodes;
  std::uint64_t seed = 1;
  int slots = 0;
  double penalty = 100.0;
  double placement_budget_ms = 0;  ///< 0: auto runs without a budget
  std::vector<std::string> parameters;
  std::string spec;
  std::vector<std::string> evaluate;
  bool compare = false;
  std::string hostfile;
  std::string json;
  std::string svg;
  std::vector<std::string> background;  ///< "HOSTFILE=GRAPH" of jobs already running
  double interference_weight = 1.0;
  std::string link_sharing = "split-duplex";
};

struct Result {
  std::string strategy;
  tofa::Placement placement;
  tofa::PlacementMetrics metrics;
  double milliseconds = 0;
};

std::ofstream open_output(const std::string& path) {
  std::ofstream out(path);
  if (!out) throw tofa::Error("cannot write '" + path + "'");
  return out;
}

std::vector<int> candidate_nodes(const std::string& hostlist, const tofa::Topology& topology) {
  std::vector<int> nodes;
  if (hostlist.empty()) return nodes;
  const auto most = static_cast<std::size_t>(topology.node_count());
  for (const std::string& name : tofa::expand_hostlist(hostlist, most)) {
    int node = topology.node_by_name(name);
    if (node < 0) throw tofa::Error("--nodes: unknown node '" + name + "'");
    nodes.push_back(node);
  }
  return nodes;
}

struct Skipped {
  std::string strategy;
  std::string reason;
};

/// Reads a SLURM_HOSTFILE (line i = node of task i) as a placement.
tofa::Placement read_hostfile(const std::string& path, const tofa::Topology& topology,
                              int tasks) {
  std::ifstream in(path);
  if (!in) throw tofa::Error("cannot open hostfile '" + path + "'");
  tofa::Placement placement;
  std::string name;
  int line = 0;
  while (std::getline(in, name)) {
    ++line;
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t\r") + 1);
    if (name.empty() || name[0] == '#') continue;
    int node = topology.node_by_name(name);
    if (node < 0)
      throw tofa::ParseError(path, line, 1, "unknown node '" + name + "'");
    placement.push_back(node);
  }
  if (static_cast<int>(placement.size()) != tasks)
    throw tofa::ParseError(path, line, 0,
                           "expected " + std::to_string(tasks) + " tasks (one node per line), found " +
                               std::to_string(placement.size()));
  return placement;
}

Result run_strategy(const std::string& name, const tofa::MappingRequest& request) {
  auto mapper = tofa::make_mapper(name);
  auto start = std::chrono::steady_clock::now();
  Result result{name, mapper->map(request), {}, 0};
  result.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
          .count();
  result.metrics =
      tofa::evaluate_placement(*request.graph, *request.topology, result.placement,
                               request.outage);
  return result;
}

// The default strategy's row is marked with "*" (a footnote says so).
void print_table(const std::vector<Result>& results) {
  std::printf("%-21s %12s %8s %4s %8s %13s %5s %5s %12s %8s %9s\n", "strategy", "hop-bytes",
              "avg-hops", "max", "dilation", "max-link-load", "links", "nodes", "MIMS",
              "P(abort)", "time-ms");
  for (const Result& r : results) {
    const tofa::PlacementMetrics& m = r.metrics;
    const std::string name = r.strategy == tofa::kDefaultStrategy ? r.strategy + "*" : r.strategy;
    std::printf("%-21s %12.6g %8.3f %4d %8.3f %13.6g %5d %5d %12.6g %8.5f %9.3f\n",
                name.c_str(), m.hop_bytes, m.average_hops, m.max_hops, m.dilation,
                m.max_link_load, m.links_used, m.nodes_used, m.mims, m.abort_probability,
                r.milliseconds);
  }
}

nlohmann::json to_json(const Result& r, const tofa::Topology& topology) {
  const tofa::PlacementMetrics& m = r.metrics;
  nlohmann::json nodes = nlohmann::json::array();
  for (int node : r.placement) nodes.push_back(topology.node_name(node));
  return {{"strategy", r.strategy},
          {"time_ms", r.milliseconds},
          {"metrics",
           {{"tasks", m.tasks},
            {"nodes_used", m.nodes_used},
            {"total_bytes", m.total_bytes},
            {"hop_bytes", m.hop_bytes},
            {"average_hops", m.average_hops},
            {"hop_variance", m.hop_variance},
            {"max_hops", m.max_hops},
            {"dilation", m.dilation},
            {"max_link_load", m.max_link_load},
            {"links_used", m.links_used},
            {"mims", m.mims},
            {"abort_probability", m.abort_probability}}},
          {"placement", nodes}};
}

/// The --background jobs: their graphs and placements, and their link loads
/// summed (empty without any).
struct Background {
  std::vector<tofa::CommGraph> graphs;
  std::vector<tofa::Placement> placements;
  std::vector<double> loads;
};

Background read_background(const Options& options, const tofa::Topology& topology) {
  Background background;
  if (options.background.empty()) return background;
  background.loads.assign(topology.link_slot_count(), 0.0);
  for (const std::string& job : options.background) {
    const std::size_t equals = job.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == job.size())
      throw tofa::Error("--background '" + job + "': expected HOSTFILE=GRAPH");
    const std::string graph_name = job.substr(equals + 1);
    background.graphs.push_back(tofa::is_graph_spec(graph_name) ? tofa::graph_from_spec(graph_name)
                                                                : tofa::read_graph(graph_name));
    const tofa::CommGraph& graph = background.graphs.back();
    background.placements.push_back(read_hostfile(job.substr(0, equals), topology, graph.task_count()));
    const std::vector<double> loads = tofa::link_loads(graph, topology, background.placements.back());
    for (std::size_t l = 0; l < loads.size(); ++l) background.loads[l] += loads[l];
  }
  return background;
}

tofa::MappingRequest mapping_request(const Options& options, const tofa::Topology& topology,
                                     const tofa::CommGraph& graph,
                                     const Background& background) {
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.candidate_nodes = candidate_nodes(options.nodes, topology);
  if (!options.faults.empty()) request.outage = tofa::read_fault_file(options.faults, topology);
  request.slots_per_node = options.slots;
  request.seed = options.seed;
  request.fault_cost.penalty = options.penalty;
  for (const std::string& setting : options.parameters) {
    std::size_t equals = setting.find('=');
    if (equals == std::string::npos || equals == 0)
      throw tofa::Error("--param '" + setting + "': expected KEY=VALUE");
    request.parameters[setting.substr(0, equals)] = setting.substr(equals + 1);
  }
  if (!options.spec.empty()) request.parameters["spec"] = options.spec;
  request.fault_cost.shared_links = options.link_sharing == "shared";
  if (background.loads.empty()) return request;
  tofa::add_interference(request.fault_cost, topology, background.loads, options.interference_weight);
  std::vector<tofa::RunningJobRoutes> routes;
  for (std::size_t job = 0; job < background.graphs.size(); ++job)
    routes.push_back({&background.graphs[job], &background.placements[job]});
  tofa::add_link_criticality(request.fault_cost, topology, routes, options.interference_weight);
  return request;
}

// --hostfile, --json and --svg, as asked.
void write_outputs(const Options& options, const tofa::Topology& topology,
                   const tofa::CommGraph& graph, const std::vector<double>& outage,
                   const std::vector<Result>& results, const std::vector<Skipped>& skipped,
                   const Result& chosen) {
  if (!options.hostfile.empty()) {
    auto out = open_output(options.hostfile);
    for (int node : chosen.placement) out << topology.node_name(node) << '\n';
  }
  if (!options.json.empty()) {
    nlohmann::json skipped_json = nlohmann::json::array();
    for (const Skipped& s : skipped) skipped_json.push_back({{"strategy", s.strategy}, {"reason", s.reason}});
    nlohmann::json doc = {{"topology", topology.describe()},
                          {"graph", options.graph},
                          {"tasks", graph.task_count()},
                          {"edges", graph.edge_count()},
                          {"results", nlohmann::json::array()},
                          {"skipped", skipped_json}};
    for (const Result& r : results) doc["results"].push_back(to_json(r, topology));
    open_output(options.json) << doc.dump(2) << '\n';
  }
  if (!options.svg.empty()) {
    auto out = open_output(options.svg);
    tofa::write_placement_svg(out, topology, chosen.placement, outage,
                              "tofa-map: " + chosen.strategy + " placement of " +
                                  options.graph);
  }
}

tofa::CommGraph load_graph(const Options& options) {
  tofa::CommGraph graph = tofa::is_graph_spec(options.graph) ? tofa::graph_from_spec(options.graph)
                                                          : tofa::read_graph(options.graph);
  if (!options.write_graph.empty()) {
    auto out = open_output(options.write_graph);
    tofa::write_matrix_market(out, graph);
  }
  return graph;
}

// With --background: how much of each placement's traffic meets it.
void print_shared_traffic(const Options& options, const tofa::Topology& topology,
                          const tofa::CommGraph& graph, const std::vector<double>& background,
                          const std::vector<Result>& results) {
  if (background.empty()) return;
  const std::vector<double> others =
      options.link_sharing == "shared" ? tofa::both_ways(topology, background) : background;
  for (const Result& r : results)
    std::printf("%s: %.1f%% of its link traffic on links the %zu background job(s) use\n",
                r.strategy.c_str(),
                100 * tofa::shared_traffic_fraction(graph, topology, r.placement, others),
                options.background.size());
}

int run(const Options& options) {
  tofa::Topology topology = tofa::load_topology(options.topology);
  const tofa::CommGraph graph = load_graph(options);
  const Background background = read_background(options, topology);
  const tofa::MappingRequest request = mapping_request(options, topology, graph, background);
  std::vector<std::string> names;
  if (options.compare) {
    for (const auto& info : tofa::mapper_table()) names.push_back(info.name);
  } else {
    names.push_back(options.strategy);
  }
  if (!options.evaluate.empty()) {  // metrics of given placements, no mapping
    std::vector<Result> given;
    for (const std::string& path : options.evaluate) {
      Result r{path, read_hostfile(path, topology, graph.task_count()), {}, 0};
      r.metrics = tofa::evaluate_placement(graph, topology, r.placement, request.outage);
      given.push_back(r);
    }
    std::printf("%s, %d tasks, graph %s\n", topology.describe().c_str(), graph.task_count(),
                options.graph.c_str());
    print_table(given);
    print_shared_traffic(options, topology, graph, background.loads, given);
    return 0;
  }
  tofa::make_mapper(options.strategy);  // fail early on an unknown name
  // With --compare, a strategy that does not apply to this job (a stencil
  // strategy on an irregular graph, rubik without a spec) is reported and skipped.
  std::vector<Result> results;
  std::vector<Skipped> skipped;
  // auto gets the service's budget (unless --param budget= gives one).
  tofa::MappingRequest budgeted = request;
  if (options.placement_budget_ms > 0 && !budgeted.parameters.count("budget"))
    budgeted.parameters["budget"] = std::to_string(
        tofa::scaled_placement_budget(options.placement_budget_ms, graph.task_count()));
  for (const std::string& name : names) {
    try {
      results.push_back(run_strategy(name, name == "auto" ? budgeted : request));
    } catch (const tofa::Error& e) {
      if (name == options.strategy) throw;
      skipped.push_back({name, e.what()});
    }
  }
  const Result& chosen = *std::find_if(results.begin(), results.end(),
                                       [&](const Result& r) { return r.strategy == options.strategy; });

  std::printf("%s, %d tasks, graph %s\n", topology.describe().c_str(), graph.task_count(),
              options.graph.c_str());
  print_table(results);
  if (results.size() > 1)
    std::printf("* the default strategy (DefaultStrategy in tofa.conf)\n");
  if (!skipped.empty()) {  // the reasons are in the JSON
    std::string names;
    for (const Skipped& s : skipped) names += (names.empty() ? "" : ", ") + s.strategy;
    std::printf("not applicable to this job: %s\n", names.c_str());
  }
  print_shared_traffic(options, topology, graph, background.loads, results);
  write_outputs(options, topology, graph, request.outage, results, skipped, chosen);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Map an MPI job's communication graph onto a torus or mesh."};
  Options options;
  bool list = false, list_patterns = false;
  app.add_flag("--list-strategies", list, "print the strategy names and exit");
  app.add_flag("--list-patterns", list_patterns, "print the pattern:SPEC forms and exit");
  app.add_option("--topology", options.topology, "topology file (tofa.conf) or torus:8x8x8");
  app.add_option("--graph", options.graph,
                 "communication matrix, edge list, MatrixMarket, stencil:AxBxC, geometric:TASKS "
                 "or pattern:SPEC (see --list-patterns)");
  app.add_option("--write-graph", options.write_graph,
                 "write the graph to this file as MatrixMarket; without --topology, only that");
  app.add_option("--faults", options.faults, "lines 'NODE PROBABILITY' (name or id)");
  app.add_option("--strategy", options.strategy,
                 std::string("mapping strategy (default ") + tofa::kDefaultStrategy + ")");
  app.add_option("--nodes", options.nodes, "candidate nodes as a hostlist, in order (default all)");
  app.add_option("--slots", options.slots, "tasks per node (default: the topology's cores)")
      ->check(CLI::Range(0, 1 << 20));
  app.add_option("--seed", options.seed, "random seed (random strategy, Scotch)");
  app.add_option("--fault-penalty", options.penalty, "Equation 1 penalty factor (default 100)")
      ->check(CLI::Validator(
          [](std::string& text) {
            double value = 0;
            return CLI::detail::lexical_cast(text, value) && std::isfinite(value) && value >= 0
                       ? std::string()
                       : "expected a finite number >= 0, found '" + text + "'";
          },
          "NUMBER >= 0"));
  app.add_option("--placement-budget", options.placement_budget_ms,
                 "auto within tofa.conf's PlacementBudget of this many ms, scaled to the job "
                 "as the service does")
      ->check(CLI::Validator(
          [](std::string& text) {
            double value = 0;
            return CLI::detail::lexical_cast(text, value) && std::isfinite(value) && value > 0
                       ? std::string()
                       : "expected milliseconds > 0, found '" + text + "'";
          },
          "MS > 0"));
  app.add_option("--param", options.parameters, "strategy setting KEY=VALUE (repeatable)");
  app.add_option("--spec", options.spec, "Rubik spec file (same as --param spec=FILE)");
  app.add_option("--evaluate", options.evaluate,
                 "metrics of the placement in this hostfile instead of mapping (repeatable)");
  app.add_flag("--compare", options.compare, "run every strategy and print them side by side");
  app.add_option("--hostfile", options.hostfile, "write SLURM_HOSTFILE: line i = node of task i");
  app.add_option("--json", options.json, "write metrics and placements as JSON");
  app.add_option("--background", options.background,
                 "a job already running, HOSTFILE=GRAPH (repeatable): its traffic costs on the "
                 "links it uses");
  app.add_option("--interference-weight", options.interference_weight,
                 "extra hops a link at the background's mean load costs (default 1)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--link-sharing", options.link_sharing,
                 "split-duplex (a lane each way) or shared (both directions share a link's "
                 "bandwidth): how --background loads and the job's own add up on a link "
                 "(LinkSharing in tofa.conf)")
      ->check(CLI::IsMember({"split-duplex", "shared"}));
  app.add_option("--svg", options.svg, "draw the placement on the torus as SVG");
  CLI11_PARSE(app, argc, argv);

  if (list) {
    for (const auto& info : tofa::mapper_table())
      std::printf("%-14s %s\n", info.name, info.summary);
    return 0;
  }
  if (list_patterns) {
    for (const auto& kind : tofa::pattern_kinds()) std::printf("pattern:%s\n", kind.usage);
    return 0;
  }
  try {
    if (options.graph.empty()) throw tofa::Error("--graph is required");
    if (options.topology.empty() && !options.write_graph.empty()) return (load_graph(options), 0);
    if (options.topology.empty()) throw tofa::Error("--topology is required");
    return run(options);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tofa-map: %s\n", e.what());
    return 1;
  }
}
