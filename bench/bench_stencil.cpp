// The stencil family of seed Bunde on contiguous and non-contiguous
// (MC1x1, snake best-fit) allocations, as JSON: average and maximum hops and
// mapping time per strategy, each relative to stencil-baseline measured in
// the same run; RCB against INCIMPROVE over many allocations; RCB's time on
// the seed's largest job (32x64x32 = 65,536 tasks).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "alloc/allocators.hpp"
#include "base/error.hpp"
#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "metrics/metrics.hpp"

namespace {

/// The stencil family from the registry (names starting with "stencil-").
std::vector<tofa::MapperInfo> stencil_strategies() {
  std::vector<tofa::MapperInfo> family;
  for (const tofa::MapperInfo& info : tofa::mapper_table())
    if (std::string(info.name).rfind("stencil-", 0) == 0) family.push_back(info);
  return family;
}

struct Case {
  std::string name;
  std::string topology;
  std::vector<int> shape;
  int slots;
  std::string allocator;  ///< "contiguous", "mc1x1" or "snake"
  unsigned seed;
  double fill;            ///< busy fraction before the job arrives
  int max_job;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

tofa::Allocator allocator_named(const std::string& name) {
  return name == "mc1x1" ? tofa::allocate_mc1x1 : tofa::allocate_snake_best_fit;
}

/// The job's nodes: a box of the job's shape (axes 0 and 1 swapped, so the
/// rotation step has work to do) at the far corner of the torus, crossing its
/// seams, listed in snake order; or the allocator's choice on a fragmented
/// machine.
std::vector<int> allocate(const Case& c, const tofa::Topology& topology, int nodes) {
  if (c.allocator == "contiguous") {
    std::vector<int> box{c.shape[1], c.shape[0], c.shape[2]};
    std::vector<int> candidates;
    std::vector<int> coord(3);
    for (int z = 0; z < box[2]; ++z)
      for (int y = 0; y < box[1]; ++y)
        for (int x = 0; x < box[0]; ++x) {
          coord = {(topology.dims()[0] - 2 + x) % topology.dims()[0],
                   (topology.dims()[1] - 2 + y) % topology.dims()[1],
                   (topology.dims()[2] - 2 + z) % topology.dims()[2]};
          candidates.push_back(topology.node_at(coord));
        }
    return candidates;
  }
  const tofa::Allocator allocator = allocator_named(c.allocator);
  const std::vector<bool> busy =
      tofa::fragmented_machine(topology, allocator, c.fill, c.max_job, c.seed);
  return allocator(topology, busy, nodes);
}

nlohmann::json run_case(const Case& c, int repetitions, int incimprove_limit) {
  const tofa::Topology topology = tofa::Topology::from_spec(c.topology);
  const tofa::CommGraph graph = tofa::stencil_graph(c.shape);
  const int tasks = graph.task_count();
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &topology;
  request.slots_per_node = c.slots;
  request.candidate_nodes = allocate(c, topology, (tasks + c.slots - 1) / c.slots);
  std::fprintf(stderr, "%s (%d tasks)\n", c.name.c_str(), tasks);

  nlohmann::json rows = nlohmann::json::array();
  double baseline_hops = 0, baseline_ms = 0;
  for (const tofa::MapperInfo& strategy : stencil_strategies()) {
    const bool slow = std::strcmp(strategy.name, "stencil-incimprove") == 0;
    if (slow && tasks > incimprove_limit) continue;
    const auto mapper = strategy.create();
    std::vector<double> times;
    tofa::Placement placement;
    for (int run = 0; run < (slow ? 1 : repetitions); ++run) {
      const auto start = std::chrono::steady_clock::now();
      placement = mapper->map(request);
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start).count());
    }
    tofa::check_placement(request, placement);
    const tofa::PlacementMetrics m = tofa::evaluate_placement(graph, topology, placement);
    const double ms = median(times);
    if (std::strcmp(strategy.name, "stencil-baseline") == 0) {
      baseline_hops = m.average_hops;
      baseline_ms = ms;
    }
    std::fprintf(stderr, "  %-22s avg %.4f max %d  %.3f ms\n", strategy.name, m.average_hops,
                 m.max_hops, ms);
    rows.push_back({{"strategy", strategy.name},
                    {"average_hops", m.average_hops},
                    {"max_hops", m.max_hops},
                    {"median_ms", ms},
                    {"runs", times.size()},
                    {"average_hops_vs_baseline", baseline_hops > 0 ? m.average_hops / baseline_hops : 0},
                    {"time_vs_baseline", baseline_ms > 0 ? ms / baseline_ms : 0}});
  }
  return {{"case", c.name},       {"topology", topology.describe()},
          {"tasks", tasks},       {"shape", c.shape},
          {"slots_per_node", c.slots}, {"allocator", c.allocator},
          {"busy_fill_before_release", c.fill}, {"results", rows}};
}

/// Average hops of one strategy on one request.
double hops_of(const tofa::MapperInfo& strategy, const tofa::MappingRequest& request) {
  const tofa::Placement placement = strategy.create()->map(request);
  return tofa::evaluate_placement(*request.graph, *request.topology, placement).average_hops;
}

/// RCB against INCIMPROVE (and ROWMAJOR with and without rotation) over
/// `trials` fragmented 16x16 meshes per allocator, with the seed's square-ish
/// 2D jobs (x = largest divisor of p not above sqrt(p)).
nlohmann::json rcb_vs_incimprove(int trials) {
  const tofa::Topology mesh = tofa::Topology::from_spec("mesh:16x16");
  const auto named = [](const std::string& name) -> tofa::MapperInfo {
    for (const tofa::MapperInfo& info : tofa::mapper_table())
      if (name == info.name) return info;
    throw tofa::Error("no strategy " + name);
  };
  const tofa::MapperInfo rcb = named("stencil-rcb");
  const tofa::MapperInfo incimprove = named("stencil-incimprove");
  const tofa::MapperInfo rowmajor = named("stencil-rowmajor");
  nlohmann::json out = nlohmann::json::array();
  for (const char* allocator_name : {"mc1x1", "snake"}) {
    double gap_sum = 0, gap_max = 0, rcb_sum = 0, inc_sum = 0;
    int rotation_worse = 0;
    for (int trial = 0; trial < trials; ++trial) {
      // The seed skipped jobs with a side longer than the machine's.
      int tasks = 16 + (trial * 37) % 113, x = 1;
      while (true) {
        for (int d = 1; d * d <= tasks; ++d)
          if (tasks % d == 0) x = d;
        if (tasks / x <= 16) break;
        ++tasks;
      }
      const tofa::CommGraph graph = tofa::stencil_graph({x, tasks / x});
      const tofa::Allocator allocator = allocator_named(allocator_name);
      const auto busy = tofa::fragmented_machine(mesh, allocator, 0.6, 24, 100 + trial);
      tofa::MappingRequest request;
      request.graph = &graph;
      request.topology = &mesh;
      request.slots_per_node = 1;
      request.candidate_nodes = allocator(mesh, busy, tasks);
      const double r = hops_of(rcb, request), i = hops_of(incimprove, request);
      const double rotated = hops_of(rowmajor, request);
      request.parameters["rotate"] = "no";
      if (rotated > hops_of(rowmajor, request) + 1e-12) ++rotation_worse;
      const double gap = (r - i) / i;
      gap_sum += gap;
      gap_max = std::max(gap_max, gap);
      rcb_sum += r;
      inc_sum += i;
    }
    std::fprintf(stderr, "rcb vs incimprove (%s): mean gap %.2f%%, max %.2f%%\n", allocator_name,
                 100 * gap_sum / trials, 100 * gap_max);
    out.push_back({{"allocator", allocator_name},
                   {"topology", mesh.describe()},
                   {"trials", trials},
                   {"rcb_mean_average_hops", rcb_sum / trials},
                   {"incimprove_mean_average_hops", inc_sum / trials},
                   {"mean_gap_percent", 100 * gap_sum / trials},
                   {"max_gap_percent", 100 * gap_max},
                   {"rowmajor_rotation_worse_trials", rotation_worse}});
  }
  return out;
}

/// The seed's 64K-core job at one core per rank: 32x64x32 tasks, 32 ranks
/// per coordinate of a 16x12x24 torus (Cielo: 2 nodes of 16 cores per Gemini).
nlohmann::json rcb_large(int repetitions) {
  const tofa::Topology torus = tofa::Topology::from_spec("torus:16x12x24");
  const tofa::CommGraph graph = tofa::stencil_graph({32, 64, 32});
  const auto busy = tofa::fragmented_machine(torus, tofa::allocate_snake_best_fit, 0.4, 300, 7);
  tofa::MappingRequest request;
  request.graph = &graph;
  request.topology = &torus;
  request.slots_per_node = 32;
  request.candidate_nodes = tofa::allocate_snake_best_fit(torus, busy, 2048);
  nlohmann::json rows = nlohmann::json::array();
  for (const tofa::MapperInfo& strategy : stencil_strategies()) {
    if (std::strcmp(strategy.name, "stencil-incimprove") == 0) continue;
    const auto mapper = strategy.create();
    std::vector<double> times;
    tofa::Placement placement;
    for (int run = 0; run < repetitions; ++run) {
      const auto start = std::chrono::steady_clock::now();
      placement = mapper->map(request);
      times.push_back(std::chrono::duration<double, std::milli>(
                          std::chrono::steady_clock::now() - start).count());
    }
    const auto m = tofa::evaluate_placement(graph, torus, placement);
    std::fprintf(stderr, "65536 tasks %-22s avg %.4f max %d  %.1f ms\n", strategy.name,
                 m.average_hops, m.max_hops, median(times));
    rows.push_back({{"strategy", strategy.name},
                    {"average_hops", m.average_hops},
                    {"max_hops", m.max_hops},
                    {"median_ms", median(times)},
                    {"runs", repetitions}});
  }
  return {{"case", "cielo-64k-cores-1-core-per-rank"},
          {"topology", torus.describe()},
          {"tasks", graph.task_count()},
          {"shape", {32, 64, 32}},
          {"slots_per_node", 32},
          {"allocator", "snake"},
          {"results", rows}};
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: bench_stencil [--quick]\n");
      return 2;
    }
  }
  try {
    const int repetitions = quick ? 1 : 5;
    const std::vector<Case> cases = {
        {"contiguous-4x8x4-on-8x4x4-box", "torus:16x12x24", {4, 8, 4}, 1, "contiguous", 0, 0, 1},
        {"mesh16x16-mc1x1-10x10", "mesh:16x16", {10, 10}, 1, "mc1x1", 1, 0.6, 24},
        {"mesh16x16-snake-10x10", "mesh:16x16", {10, 10}, 1, "snake", 1, 0.6, 24},
        {"mesh20x20-mc1x1-12x15", "mesh:20x20", {12, 15}, 1, "mc1x1", 2, 0.6, 40},
        {"mesh20x20-snake-12x15", "mesh:20x20", {12, 15}, 1, "snake", 2, 0.6, 40},
        {"cielo-mc1x1-4x8x4-1rank", "torus:16x12x24", {4, 8, 4}, 1, "mc1x1", 3, 0.5, 200},
        {"cielo-snake-8x16x8-1rank", "torus:16x12x24", {8, 16, 8}, 1, "snake", 3, 0.5, 200},
        {"cielo-snake-16x32x16-4ranks", "torus:16x12x24", {16, 32, 16}, 4, "snake", 4, 0.4, 300},
    };
    nlohmann::json out = {{"benchmark", "stencil"}, {"cases", nlohmann::json::array()}};
    for (const Case& c : cases) out["cases"].push_back(run_case(c, repetitions, 1024));
    out["rcb_vs_incimprove"] = rcb_vs_incimprove(quick ? 6 : 30);
    out["rcb_65536_tasks"] = rcb_large(quick ? 1 : 5);
    std::cout << out.dump(2) << '\n';
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_stencil: %s\n", e.what());
    return 1;
  }
  return 0;
}
