// Mapping time (median of repeated runs) and quality of every strategy, as JSON.
// The baseline is default-slurm measured in the same run: each strategy also
// reports its hop-bytes and time relative to it.
#include <algorithm>
#include <map>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_options.hpp"

#include "alloc/allocators.hpp"
#include "base/error.hpp"
#include "graph/generators.hpp"
#include "map/anneal/cubic_problems.hpp"
#include "map/anneal/energy.hpp"
#include "map/mapper.hpp"
#include "map/mims/mims.hpp"
#include "map/portfolio/strategies.hpp"
#include "metrics/metrics.hpp"
#include "service/tofa_conf.hpp"

namespace {

/// tofa.conf's default PlacementBudget.
const double kPlacementBudgetMs = tofa::service::ServiceSettings{}.placement_budget_ms;

struct BenchCase {
  std::string name;
  tofa::Topology topology;
  tofa::CommGraph graph;
  std::vector<double> outage;
  int repetitions;
  std::vector<int> candidates = {};  ///< empty: every node
  std::map<std::string, std::string> parameters = {};
};

/// The nodes an allocator gives a job on a half-busy 8x8x8 machine.
std::vector<int> non_contiguous(const tofa::Topology& topology, tofa::Allocator allocator,
                                int count) {
  return allocator(topology, tofa::fragmented_machine(topology, allocator, 0.5, 32, 7), count);
}

std::vector<double> random_faults(int node_count, int faulty, double p, unsigned seed) {
  std::vector<int> nodes(node_count);
  for (int i = 0; i < node_count; ++i) nodes[i] = i;
  std::shuffle(nodes.begin(), nodes.end(), std::mt19937(seed));
  std::vector<double> outage(node_count, 0.0);
  for (int i = 0; i < faulty; ++i) outage[nodes[i]] = p;
  return outage;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

nlohmann::json run_case(const BenchCase& c) {
  tofa::MappingRequest request;
  request.graph = &c.graph;
  request.topology = &c.topology;
  request.outage = c.outage;
  request.candidate_nodes = c.candidates;
  request.parameters = c.parameters;
  request.parameters["max-evaluations"] = "20000000";  // bounds stencil-incimprove
  nlohmann::json rows = nlohmann::json::array();
  double baseline_ms = 0, baseline_hop_bytes = 0;
  for (const auto& info : tofa::mapper_table()) {
    std::fprintf(stderr, "  %-22s", info.name);
    auto mapper = info.create();
    // auto as jobs get it: within the service's default budget.
    tofa::MappingRequest own = request;
    if (std::strcmp(info.name, "auto") == 0)
      own.parameters["budget"] =
          std::to_string(tofa::scaled_placement_budget(kPlacementBudgetMs, c.graph.task_count()));
    std::vector<double> times;
    tofa::Placement placement;
    try {
      // Slow strategies (over a second per run) are timed once.
      for (int run = 0; run < c.repetitions && (times.empty() || times[0] < 1000); ++run) {
        auto start = std::chrono::steady_clock::now();
        placement = mapper->map(own);
        times.push_back(std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start).count());
      }
    } catch (const tofa::Error& e) {  // e.g. a stencil strategy on an irregular graph
      std::fprintf(stderr, " skipped: %s\n", e.what());
      continue;
    }
    auto m = tofa::evaluate_placement(c.graph, c.topology, placement, c.outage);
    double f_ratio = tofa::free_energy_of(c.graph, c.topology, placement).ratio();
    double ms = median(times);
    double first_ms = times.front();  // cold: includes building Scotch targets
    if (std::strcmp(info.name, "default-slurm") == 0) {
      baseline_ms = ms;
      baseline_hop_bytes = m.hop_bytes;
    }
    std::fprintf(stderr, " median %.3f ms over %zu runs (first %.3f ms)\n", ms, times.size(),
                 first_ms);
    rows.push_back({{"strategy", info.name},
                    {"median_ms", ms},
                    {"first_ms", first_ms},
                    {"runs", times.size()},
                    {"hop_bytes", m.hop_bytes},
                    {"hop_bytes_vs_default", baseline_hop_bytes > 0 ? m.hop_bytes / baseline_hop_bytes : 0},
                    {"time_vs_default", baseline_ms > 0 ? ms / baseline_ms : 0},
                    {"average_hops", m.average_hops},
                    {"max_hops", m.max_hops},
                    {"max_link_load", m.max_link_load},
                    {"mims", m.mims},
                    {"f_over_fmin", f_ratio},
                    {"abort_probability", m.abort_probability}});
  }
  return {{"case", c.name},
          {"topology", c.topology.describe()},
          {"tasks", c.graph.task_count()},
          {"faulty_nodes", std::count_if(c.outage.begin(), c.outage.end(),
                                         [](double p) { return p > 0; })},
          {"results", rows}};
}

}  // namespace

int main(int argc, char** argv) {
  tofa_bench::ExamplesOptions options;
  if (!tofa_bench::parse_examples_options(argc, argv, "bench_mappers", options)) return 2;
  const std::string& examples = options.examples;
  const bool quick = options.quick;
  try {
    int repetitions = quick ? 3 : 21;
    auto torus8 = tofa::Topology::from_spec("torus:8x8x8");
    auto faults = random_faults(512, 16, 0.02, 2024);
    std::vector<BenchCase> cases;
    cases.push_back({"stencil64-torus8x8x8-16faulty", torus8,
                     tofa::stencil_graph({4, 4, 4}, 1 << 20), faults, repetitions});
    cases.push_back({"dt85-torus8x8x8-16faulty", torus8,
                     tofa::read_graph(examples + "/dt85.mat"), faults, repetitions});
    // 10% faulty: no run of 85 consecutive fault-free nodes is left.
    cases.push_back({"dt85-torus8x8x8-51faulty", torus8,
                     tofa::read_graph(examples + "/dt85.mat"), random_faults(512, 51, 0.02, 7),
                     repetitions});
    cases.push_back({"cubic1-torus8x8x8", torus8, tofa::anneal::cubic_graph({8, 8, 8}, 1, 0), {},
                     quick ? 1 : 3});
    cases.push_back({"cubic2-torus8x8x8", torus8, tofa::anneal::cubic_graph({8, 8, 8}, 2, 1), {},
                     quick ? 1 : 3});
    auto torus8_dual = tofa::Topology::from_spec("torus:8x8x8:cores=2");
    cases.push_back({"powerlaw256-torus8x8x8-2cores", torus8_dual,
                     tofa::power_law_graph(256, 0.6, 1 << 20, 3), {}, quick ? 1 : 3});
    cases.push_back({"chungmesh16x16-torus8x8x8-2cores", torus8_dual,
                     tofa::chung_mesh_graph(16, 16, 4 << 20, 1 << 20), {}, quick ? 1 : 3});
    cases.push_back({"stencil8x8x4-mc1x1-halfbusy", torus8, tofa::stencil_graph({8, 8, 4}, 1 << 20),
                     {}, quick ? 1 : 3, non_contiguous(torus8, tofa::allocate_mc1x1, 256)});
    cases.push_back({"stencil8x8x4-snake-halfbusy", torus8, tofa::stencil_graph({8, 8, 4}, 1 << 20),
                     {}, quick ? 1 : 3,
                     non_contiguous(torus8, tofa::allocate_snake_best_fit, 256)});
    cases.push_back({"stencil4096-torus16x16x16", tofa::Topology::from_spec("torus:16x16x16"),
                     tofa::stencil_graph({16, 16, 16}, 1 << 20), {}, quick ? 1 : 3});
    nlohmann::json out = {{"benchmark", "mappers"}, {"cases", nlohmann::json::array()}};
    for (const BenchCase& c : cases) {
      std::fprintf(stderr, "%s (%d tasks)\n", c.name.c_str(), c.graph.task_count());
      out["cases"].push_back(run_case(c));
    }
    std::cout << out.dump(2) << '\n';
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_mappers: %s\n", e.what());
    return 1;
  }
  return 0;
}
