// MIMS benchmark, as JSON.
// 1. Scaling of MIMS packing (seed Chung et al. claim O(m log m)): median
//    time of mims_packing on random sparse graphs of growing edge count m,
//    divided by m log2 m; the same run times std::sort of m doubles as the
//    baseline (pure m log m work), so "vs_sort" should stay roughly flat.
// 2. MIMS (nodes as packs) and hop-bytes of every registered strategy plus
//    "mims", relative to default-slurm in the same run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_options.hpp"

#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "map/mims/mims.hpp"
#include "map/mims/strategies.hpp"
#include "map/rubik/rubik.hpp"
#include "metrics/metrics.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// About `edges` undirected edges among edges/4 tasks, random bytes.
tofa::CommGraph random_graph(int edges, unsigned seed) {
  const int tasks = std::max(16, edges / 4);
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> task(0, tasks - 1);
  std::uniform_real_distribution<double> bytes(1, 1e6);
  std::vector<tofa::CommEdge> list;
  list.reserve(edges);
  for (int i = 0; i < edges; ++i) {
    const int a = task(engine), b = task(engine);
    if (a != b) list.push_back({a, b, std::round(bytes(engine)), 1});
  }
  return tofa::CommGraph::from_directed_edges(tasks, list);
}

nlohmann::json scaling(bool quick) {
  const std::vector<int> sizes = quick ? std::vector<int>{1 << 12, 1 << 14, 1 << 16}
                                       : std::vector<int>{1 << 14, 1 << 16, 1 << 18, 1 << 20};
  const int repetitions = quick ? 3 : 7;
  nlohmann::json rows = nlohmann::json::array();
  for (int k : {2, 4, 6, 8}) {
    double lowest = 1e300, highest = 0;
    nlohmann::json per_size = nlohmann::json::array();
    for (int target : sizes) {
      const tofa::CommGraph graph = random_graph(target, 1000u + target);
      const double m = static_cast<double>(graph.edge_count());
      std::vector<double> pack_ms, sort_ms;
      double mims = 0;
      for (int run = 0; run < repetitions; ++run) {
        auto start = Clock::now();
        mims = tofa::mims_packing(graph, k).mims;
        pack_ms.push_back(ms_since(start));
        std::vector<double> keys(graph.bytes().begin(), graph.bytes().begin() + graph.edge_count());
        start = Clock::now();
        std::sort(keys.begin(), keys.end(), std::greater<double>());
        sort_ms.push_back(ms_since(start));
      }
      const double packing = median(pack_ms), sorting = median(sort_ms);
      const double ns_per = packing * 1e6 / (m * std::log2(m));
      lowest = std::min(lowest, ns_per);
      highest = std::max(highest, ns_per);
      std::fprintf(stderr, "  k=%d m=%8.0f  packing %9.3f ms  %.2f ns/(m log2 m)  sort %8.3f ms\n", k,
                   m, packing, ns_per, sorting);
      per_size.push_back({{"edges", m},
                          {"tasks", graph.task_count()},
                          {"median_ms", packing},
                          {"ns_per_m_log2_m", ns_per},
                          {"sort_baseline_ms", sorting},
                          {"vs_sort", sorting > 0 ? packing / sorting : 0},
                          {"mims", mims}});
    }
    rows.push_back({{"k", k},
                    {"exact", tofa::mims_packing_is_optimal(k)},
                    {"runs", repetitions},
                    {"sizes", per_size},
                    {"max_over_min_ns_per_m_log2_m", highest / lowest}});
  }
  return rows;
}

nlohmann::json quality(const std::string& examples, bool quick) {
  struct Case {
    std::string name;
    tofa::Topology topology;
    tofa::CommGraph graph;
  };
  std::vector<Case> cases;
  cases.push_back({"stencil16x8x8-torus8x8x8-4cores", tofa::Topology::from_spec("torus:8x8x8:cores=4"),
                   tofa::stencil_graph({16, 8, 8}, 1 << 20)});
  cases.push_back({"dt85-torus8x8x8-4cores", tofa::Topology::from_spec("torus:8x8x8:cores=4"),
                   tofa::read_graph(examples + "/dt85.mat")});
  cases.push_back({"random1024-torus8x8x8-4cores", tofa::Topology::from_spec("torus:8x8x8:cores=4"),
                   random_graph(4096, 5)});
  cases.push_back({"random1536-torus8x8x8-6cores", tofa::Topology::from_spec("torus:8x8x8:cores=6"),
                   random_graph(6144, 6)});
  if (!quick)
    cases.push_back({"random4096-torus8x8x8-8cores", tofa::Topology::from_spec("torus:8x8x8:cores=8"),
                     random_graph(16384, 7)});

  nlohmann::json out = nlohmann::json::array();
  for (const Case& c : cases) {
    std::fprintf(stderr, "%s (%d tasks)\n", c.name.c_str(), c.graph.task_count());
    tofa::MappingRequest request;
    request.graph = &c.graph;
    request.topology = &c.topology;
    std::vector<std::pair<std::string, std::unique_ptr<tofa::Mapper>>> mappers;
    bool has_mims = false;
    for (const auto& info : tofa::mapper_table()) {
      mappers.emplace_back(info.name, info.create());
      has_mims = has_mims || std::strcmp(info.name, "mims") == 0;
    }
    if (!has_mims) mappers.emplace_back("mims", tofa::make_mims_mapper());
    const int k = c.topology.cores_per_node();
    const double optimum = tofa::mims_packing(c.graph, k).mims;
    double base_mims = 0, base_hop_bytes = 0;
    nlohmann::json rows = nlohmann::json::array();
    for (auto& [name, mapper] : mappers) {
      try {
        const auto start = Clock::now();
        const tofa::Placement placement = mapper->map(request);
        const double ms = ms_since(start);
        const auto metrics = tofa::evaluate_placement(c.graph, c.topology, placement);
        const double mims = tofa::mims(c.graph, placement);
        if (name == "default-slurm") {
          base_mims = mims;
          base_hop_bytes = metrics.hop_bytes;
        }
        std::fprintf(stderr, "  %-16s MIMS %12.6g  hop-bytes %12.6g  %9.3f ms\n", name.c_str(), mims,
                     metrics.hop_bytes, ms);
        rows.push_back({{"strategy", name},
                        {"mims", mims},
                        {"mims_vs_default", base_mims > 0 ? mims / base_mims : 0},
                        {"hop_bytes", metrics.hop_bytes},
                        {"hop_bytes_vs_default", base_hop_bytes > 0 ? metrics.hop_bytes / base_hop_bytes : 0},
                        {"ms", ms}});
      } catch (const std::exception& error) {  // e.g. rubik without a spec
        rows.push_back({{"strategy", name}, {"skipped", error.what()}});
      }
    }
    out.push_back({{"case", c.name},
                   {"tasks", c.graph.task_count()},
                   {"edges", c.graph.edge_count()},
                   {"k", k},
                   {"optimal_mims", optimum},
                   {"exact", tofa::mims_packing_is_optimal(k)},
                   {"results", rows}});
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  tofa_bench::ExamplesOptions options;
  if (!tofa_bench::parse_examples_options(argc, argv, "bench_mims", options)) return 2;
  const std::string& examples = options.examples;
  const bool quick = options.quick;
  try {
    std::fprintf(stderr, "MIMS packing scaling\n");
    nlohmann::json out = {{"benchmark", "mims"}, {"scaling", scaling(quick)}};
    out["quality"] = quality(examples, quick);
    std::cout << out.dump(2) << '\n';
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_mims: %s\n", e.what());
    return 1;
  }
  return 0;
}
