// tofa-sim batch: draws, placements, simulations, accounting.
#include "batch.hpp"

#include <fstream>
#include <map>

#include "base/error.hpp"
#include "batch_report.hpp"
#include "graph/generators.hpp"
#include "hostfile.hpp"
#include "map/mapper.hpp"
#include "metrics/metrics.hpp"
#include "parallel.hpp"
#include "progress.hpp"
#include "simulate.hpp"
#include "smpi_run.hpp"
#include "work_dir.hpp"

namespace tofa::sim {

namespace {

std::vector<BatchDraw> draw_batches(const BatchSettings& settings, const Topology& topology) {
  std::vector<int> given;
  for (const std::string& name : settings.outage_nodes) {
    const int node = topology.node_by_name(name);
    if (node < 0) throw Error("--outage-nodes: unknown node '" + name + "'");
    given.push_back(node);
  }
  std::vector<BatchDraw> draws;
  for (std::uint64_t seed : batch_seeds(settings.seed, settings.batches)) {
    if (settings.outage_nodes.empty())
      draws.push_back(draw_batch(topology.node_count(), settings.model, settings.instances, seed));
    else
      draws.push_back(
          draw_batch_on(given, settings.model.outage_probability, settings.instances, seed));
  }
  return draws;
}

/// tofa-map --strategy for one batch, with N_f at p_f as its faults file.
std::vector<int> strategy_placement(const BatchSettings& settings, const Topology& topology,
                                    const BatchDraw& draw, const std::string& graph_path,
                                    WorkDir& work, int batch, int ranks) {
  const std::string faults = work.file("faults." + std::to_string(batch));
  const std::string hosts = work.file("placement." + std::to_string(batch));
  {
    std::ofstream out(faults);
    for (int node : draw.outage_nodes)
      out << topology.node_name(node) << ' ' << settings.model.outage_probability << '\n';
    if (!out.flush()) throw Error("cannot write '" + faults + "'");
  }
  std::vector<std::string> args = {settings.tofa_map,
                                   "--topology",
                                   settings.topology,
                                   "--graph",
                                   graph_path,
                                   "--faults",
                                   faults,
                                   "--strategy",
                                   settings.strategy,
                                   "--hostfile",
                                   hosts};
  args.insert(args.end(), settings.map_args.begin(), settings.map_args.end());
  const SmpiOutcome outcome = run_process(args, "", "tofa-map", false);
  if (outcome.exit_status != 0)
    throw Error("tofa-map failed for batch " + std::to_string(batch + 1) + ":\n" + outcome.output);
  return read_hostfile(hosts, topology, ranks);
}

/// The batches' placements, each distinct one once.
std::vector<Placement> place(const BatchSettings& settings, const Topology& topology,
                             const CommGraph& graph, const std::vector<BatchDraw>& draws,
                             WorkDir& work, std::vector<int>& placement_of_batch) {
  std::vector<Placement> placements;
  std::map<std::vector<int>, int> index;
  auto add = [&](std::vector<int> nodes, int batch) {
    auto [it, inserted] = index.emplace(nodes, static_cast<int>(placements.size()));
    if (inserted) placements.push_back({std::move(nodes), {}, {}, {}});
    placements[it->second].batches.push_back(batch);
    placement_of_batch[batch] = it->second;
  };
  if (settings.strategy.empty()) {
    const std::vector<int> nodes = read_hostfile(settings.hostfile, topology, graph.task_count());
    for (int b = 0; b < settings.batches; ++b) add(nodes, b);
  } else {
    const std::string graph_path = work.file("graph.mat");
    {
      std::ofstream out(graph_path);
      write_dense_matrix(out, graph);
      if (!out.flush()) throw Error("cannot write '" + graph_path + "'");
    }
    Progress progress("placements (tofa-map --strategy " + settings.strategy + ")",
                      settings.batches);
    for (int b = 0; b < settings.batches; ++b) {
      progress.update(b);
      add(strategy_placement(settings, topology, draws[b], graph_path, work, b, graph.task_count()),
          b);
    }
  }
  for (Placement& placement : placements)
    placement.in_use = nodes_in_use(topology, graph, placement.nodes);
  return placements;
}

void simulate_all(const BatchSettings& settings, const Topology& topology,
                  std::vector<Placement>& placements, WorkDir& work) {
  if (settings.fault_free_time > 0) {
    for (Placement& placement : placements) {
      placement.result.time = settings.fault_free_time;
      placement.result.line = "given: --fault-free-time";
    }
    return;
  }
  Simulation simulation;
  simulation.app = settings.app;
  simulation.program = settings.program;
  simulation.smpirun = settings.smpirun;
  simulation.platform = work.file("platform.xml");
  simulation.cfg = settings.cfg;
  simulation.crosstraffic = settings.crosstraffic;
  simulation.work_dir = work.path();
  simulation.show_progress = false;
  {
    std::ofstream out(simulation.platform);
    write_platform(out, topology, settings.platform);
    if (!out.flush()) throw Error("cannot write '" + simulation.platform + "'");
  }
  std::vector<Simulation> runs(placements.size(), simulation);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    runs[i].hostfile_name = "hosts." + std::to_string(i);
    work.file(runs[i].hostfile_name);
  }
  run_parallel(static_cast<int>(placements.size()), settings.jobs, "simulations",
               [&](int i) { placements[i].result = simulate(runs[i], placements[i].nodes); });
}

}  // namespace

int batch_command(const BatchSettings& settings) {
  if (settings.fault_free_time > 0 && settings.hostfile.empty())
    throw Error("batch: --fault-free-time needs --hostfile (one placement)");
  const Topology topology = load_topology(settings.topology);
  const CommGraph graph = app_graph(settings.app);
  const std::vector<BatchDraw> draws = draw_batches(settings, topology);
  WorkDir work(settings.keep);

  std::vector<int> placement_of_batch(settings.batches, 0);
  std::vector<Placement> placements =
      place(settings, topology, graph, draws, work, placement_of_batch);
  simulate_all(settings, topology, placements, work);

  std::vector<BatchOutcome> outcomes;
  for (int b = 0; b < settings.batches; ++b) {
    const Placement& placement = placements[placement_of_batch[b]];
    outcomes.push_back(run_batch(draws[b], settings.model.outage_probability, placement.in_use,
                                 placement.result.time, settings.abort_cost, settings.max_aborts));
  }

  BatchReport report{settings, topology, draws, placements, placement_of_batch, outcomes};
  print_batches(report);
  if (!settings.json.empty()) write_batch_json(settings.json, report);
  return 0;
}

}  // namespace tofa::sim
