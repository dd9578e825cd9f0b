#include "harness/report.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace tofa::harness {

using Json = nlohmann::ordered_json;

Json failure_report(const FailureModel& model, int node_count, double freeze_round) {
  const FailureSpec& spec = model.spec();
  long failing = 0, frozen = 0;
  for (int node = 0; node < node_count; ++node) {
    failing += model.truth(node) > 0 && !model.frozen(node);
    frozen += model.frozen(node);
  }
  return Json{{"seed", spec.seed},
              {"failing_fraction", spec.failing_fraction},
              {"outage_range", {spec.min_outage, spec.max_outage}},
              {"repair_rounds", spec.repair_rounds},
              {"frozen_fraction", spec.frozen_fraction},
              {"freeze_round", freeze_round},
              {"drop_rate", spec.drop_rate},
              {"failing_nodes", failing},
              {"frozen_nodes", frozen}};
}

Json failure_events(const std::string& dir, int groups) {
  unsigned long long failures = 0, repairs = 0;
  for (int g = 0; g < groups; ++g) {
    std::ifstream in(dir + "/group-" + std::to_string(g) + ".events");
    unsigned long long f = 0, r = 0;
    if (in >> f >> r) {
      failures += f;
      repairs += r;
    }
  }
  return Json{{"failures", failures}, {"repairs", repairs}};
}

Json estimates_by_class(const FailureModel& model, const std::vector<double>& estimates) {
  double sums[3] = {0, 0, 0};
  long counts[3] = {0, 0, 0};
  for (std::size_t node = 0; node < estimates.size(); ++node) {
    const int id = static_cast<int>(node);
    const int kind = model.frozen(id) ? 2 : model.truth(id) > 0 ? 1 : 0;
    sums[kind] += estimates[node];
    ++counts[kind];
  }
  auto mean = [&](int kind) {
    return counts[kind] ? sums[kind] / static_cast<double>(counts[kind]) : 0.0;
  };
  return Json{{"healthy", mean(0)}, {"failing", mean(1)}, {"frozen", mean(2)}};
}

void print_strategy_table(const Json& strategies) {
  std::printf("%-14s %9s %8s %10s %9s %9s %9s %8s\n", "strategy", "placed", "util", "hop-bytes",
              "avg-hops", "P(abort)", "wait-s", "p50-ms");
  for (const Json& s : strategies)
    std::printf("%-14s %9lu %8.3f %10.1f %9.3f %9.4f %9.0f %8.2f\n",
                s["strategy"].get<std::string>().c_str(), s["jobs_started"].get<unsigned long>(),
                s["utilisation"].get<double>(), s["mean_hop_bytes"].get<double>(),
                s["mean_average_hops"].get<double>(), s["mean_abort_probability"].get<double>(),
                s["mean_wait"].get<double>(), s["placement_latency_ms"]["p50"].get<double>());
}

void write_charts(const std::string& script, const std::string& report, const std::string& dir) {
  const std::string command = "python3 \"" + script + "\" \"" + report + "\" \"" + dir + "\"";
  if (std::system(command.c_str()) != 0)
    std::fprintf(stderr, "tofa-harness: charts failed (%s)\n", command.c_str());
}

}  // namespace tofa::harness
