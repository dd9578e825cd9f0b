// The table and the JSON of tofa-sim batch.
#include "batch_report.hpp"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/error.hpp"

namespace tofa::sim {

namespace {

using Json = nlohmann::ordered_json;

std::string placement_source(const BatchSettings& settings) {
  return settings.strategy.empty() ? settings.hostfile : "tofa-map --strategy " + settings.strategy;
}

int failing_node_count(const BatchSettings& settings) {
  return settings.outage_nodes.empty() ? settings.model.failing_nodes
                                       : static_cast<int>(settings.outage_nodes.size());
}

struct Summary {
  double mean = 0;  ///< mean completion time
  long long aborted = 0, instances = 0, aborts = 0;
  double ratio() const {
    return instances ? static_cast<double>(aborted) / static_cast<double>(instances) : 0.0;
  }
};

Summary summarize(const std::vector<BatchOutcome>& outcomes) {
  Summary total;
  for (const BatchOutcome& o : outcomes) {
    total.mean += o.completion_time;
    total.aborted += o.aborted_instances;
    total.instances += o.instances;
    total.aborts += o.aborts;
  }
  if (!outcomes.empty()) total.mean /= static_cast<double>(outcomes.size());
  return total;
}

Json names(const Topology& topology, const std::vector<int>& nodes) {
  Json list = Json::array();
  for (int node : nodes) list.push_back(topology.node_name(node));
  return list;
}

Json batch_json(const Topology& topology, const BatchDraw& draw, const BatchOutcome& outcome,
                int placement) {
  Json aborted = Json::array();
  for (std::size_t k = 0; k < outcome.instance.size(); ++k) {
    const InstanceOutcome& instance = outcome.instance[k];
    if (instance.aborts > 0)
      aborted.push_back({{"instance", k},
                         {"aborts", instance.aborts},
                         {"causes", names(topology, instance.causes)},
                         {"time", instance.time}});
  }
  return {{"seed", draw.seed},
          {"outage_nodes", names(topology, draw.outage_nodes)},
          {"placement", placement},
          {"fault_free_time", outcome.fault_free_time},
          {"completion_time", outcome.completion_time},
          {"instances", outcome.instances},
          {"runs", outcome.runs},
          {"aborts", outcome.aborts},
          {"aborted_instances", outcome.aborted_instances},
          {"abort_ratio", outcome.abort_ratio()},
          {"instance_seeds", draw.instance_seeds},
          {"aborted", aborted}};
}

}  // namespace

void print_batches(const BatchReport& report) {
  const BatchSettings& settings = report.settings;
  std::printf("%s on %s, placement %s; n_f = %d, p_f = %g, abort cost %s; master seed %llu\n",
              describe(settings.app).c_str(), report.topology.describe().c_str(),
              placement_source(settings).c_str(), failing_node_count(settings),
              settings.model.outage_probability, abort_cost_name(settings.abort_cost).c_str(),
              static_cast<unsigned long long>(settings.seed));
  for (std::size_t p = 0; p < report.placements.size(); ++p)
    std::printf("placement %zu: %s (wall %.1f s)\n", p + 1,
                report.placements[p].result.line.c_str(), report.placements[p].result.wall_seconds);
  std::printf("%5s %20s %9s %14s %16s %6s %7s %11s\n", "batch", "seed", "placement",
              "fault-free (s)", "completion (s)", "runs", "aborted", "abort ratio");
  for (std::size_t b = 0; b < report.outcomes.size(); ++b) {
    const BatchOutcome& o = report.outcomes[b];
    std::printf("%5zu %20llu %9d %14.9f %16.9f %6lld %7d %11.4f\n", b + 1,
                static_cast<unsigned long long>(o.seed), report.placement_of_batch[b] + 1,
                o.fault_free_time, o.completion_time, o.runs, o.aborted_instances, o.abort_ratio());
  }
  const Summary total = summarize(report.outcomes);
  std::printf(
      "mean completion time %.9f s over %zu batches; abort ratio %.4f (%lld of %lld "
      "instances aborted, %lld aborted runs)\n",
      total.mean, report.outcomes.size(), total.ratio(), total.aborted, total.instances,
      total.aborts);
}

void write_batch_json(const std::string& path, const BatchReport& report) {
  const BatchSettings& settings = report.settings;
  const Topology& topology = report.topology;
  const Summary total = summarize(report.outcomes);
  Json document = {{"tofa_sim_batch", 1},
                   {"topology", topology.describe()},
                   {"application", describe(settings.app)},
                   {"placement_source", placement_source(settings)},
                   {"failure_model",
                    {{"failing_nodes", failing_node_count(settings)},
                     {"outage_probability", settings.model.outage_probability},
                     {"outage_nodes_given", settings.outage_nodes},
                     {"abort_cost", abort_cost_name(settings.abort_cost)},
                     {"rerun",
                      "until a run does not abort; each run draws N_f's failures again, "
                      "continuing the instance's mt19937_64 stream"}}},
                   {"master_seed", settings.seed},
                   {"batch_count", report.outcomes.size()},
                   {"instances_per_batch", settings.instances},
                   {"mean_completion_time", total.mean},
                   {"abort_ratio", total.ratio()},
                   {"aborted_instances", total.aborted},
                   {"aborted_runs", total.aborts},
                   {"placements", Json::array()},
                   {"batches", Json::array()}};
  for (const Placement& p : report.placements)
    document["placements"].push_back({{"nodes", names(topology, p.nodes)},
                                      {"batches", p.batches},
                                      {"fault_free_time", p.result.time},
                                      {"result", p.result.line},
                                      {"wall_seconds", p.result.wall_seconds}});
  for (std::size_t b = 0; b < report.outcomes.size(); ++b)
    document["batches"].push_back(
        batch_json(topology, report.draws[b], report.outcomes[b], report.placement_of_batch[b]));
  std::ofstream out(path);
  out << document.dump(2) << '\n';
  if (!out.flush()) throw Error("cannot write '" + path + "'");
}

}  // namespace tofa::sim
