// Placement latency as tofa's select shim sees it: ServiceState::place for
// a recorded job (no network), 85 tasks of the bundled DT-like graph on a
// 512-node 8x8x8 torus whose candidates come in snake order, with 16 nodes at
// outage 0.02, each strategy mapped in the tofa-map-worker process the
// service uses (--worker PATH) and, for comparison, in process. Baseline:
// default-slurm through the same path. Prints JSON.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "metrics/metrics.hpp"
#include "service/service_state.hpp"

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw tofa::Error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string examples = "examples";
  std::string worker = "tools/.libs/tofa-map-worker";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--examples") == 0) examples = argv[i + 1];
    if (std::strcmp(argv[i], "--worker") == 0) worker = argv[i + 1];
  }
  char resolved[4096];
  if (realpath(worker.c_str(), resolved)) worker = resolved;
  char dir_template[] = "/tmp/tofa-bench-service-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) return 1;
  const std::string state_dir = dir_template;
  try {
    auto topology = tofa::Topology::from_spec("torus:8x8x8");
    std::string candidates;
    for (int node : tofa::snake_order(topology))
      candidates += (candidates.empty() ? "" : ",") + topology.node_name(node);

    tofa::service::ServiceSettings in_process_settings;
    in_process_settings.map_worker.program = "";
    tofa::service::ServiceSettings worker_settings;
    worker_settings.map_worker.program = worker;
    tofa::service::ServiceState in_process(in_process_settings, topology, 0, state_dir + "/a",
                                           [](int, const std::string&) {});
    tofa::service::ServiceState in_worker(worker_settings, topology, 0, state_dir + "/b",
                                          [](int, const std::string&) {});
    const uid_t user = 1000;
    const std::string matrix = read_text(examples + "/dt85.mat");
    const std::string graph = in_process.upload_graph(user, "dt85.mat", matrix).id;
    in_worker.upload_graph(user, "dt85.mat", matrix);
    for (auto* state : {&in_process, &in_worker})
      for (int node = 0; node < 512; node += 32)
        state->set_outage(0, topology.node_name(node), 0.02);

    unsigned job = 1;
    auto median_ms = [&](tofa::service::ServiceState& state, const char* strategy,
                         std::vector<double>& times) {
      for (int run = 0; run < 51; ++run) {
        tofa::service::PlaceRequest request;
        request.uid = user;
        request.graph_id = graph;
        request.job = job++;
        request.strategy = strategy;
        request.candidates = candidates;
        auto start = std::chrono::steady_clock::now();
        state.place(request);
        times.push_back(std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start).count());
      }
      return median(times);
    };
    nlohmann::json rows = nlohmann::json::array();
    double baseline = 0;
    for (const char* strategy : {"auto", "default-slurm", "tofa", "tofa-compact", "greedy"}) {
      std::vector<double> times, local_times;
      const double ms = median_ms(in_worker, strategy, times);
      const double local_ms = median_ms(in_process, strategy, local_times);
      if (std::strcmp(strategy, "default-slurm") == 0) baseline = ms;
      std::fprintf(stderr, "  %-14s median %.3f ms in the worker, %.3f ms in process (first %.3f ms)\n",
                   strategy, ms, local_ms, times.front());
      rows.push_back({{"strategy", strategy}, {"median_ms", ms}, {"in_process_ms", local_ms},
                      {"worker_overhead_ms", ms - local_ms}, {"first_ms", times.front()},
                      {"runs", times.size()}, {"time_vs_default", baseline > 0 ? ms / baseline : 0}});
    }
    std::cout << nlohmann::json{{"benchmark", "service placement (select/tofa path)"},
                                {"tasks", 85}, {"nodes", 512}, {"faulty_nodes", 16},
                                {"results", rows}}.dump(2)
              << '\n';
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_service: %s\n", e.what());
    return 1;
  }
  std::system(("rm -rf '" + state_dir + "'").c_str());
  return 0;
}
