// Simulated annealing (seed: Bhanot et al.) on the seed's Cubic 1 and Cubic 2
// problems (8^3 domains on an 8x8x8 torus, Table 1) and on a 16^3 stencil on
// a 16x16x16 torus: F / F_min and time of MPI rank order, random placement
// (mean of many), the heuristic starts, annealing from them, and Scotch (the
// tofa strategy), all measured in the same run. Each problem also runs with
// its task ids shuffled, which rank order (and the seed's id-ordered
// heuristic) cannot exploit.
// JSON on stdout, progress on stderr.
//   bench_anneal [--budget SECONDS]   (time budget of the long 16^3 runs, default 50)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/generators.hpp"
#include "map/anneal/cubic_problems.hpp"
#include "map/anneal/energy.hpp"
#include "map/anneal/run.hpp"
#include "map/mapper.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Problem {
  std::string name;
  tofa::Topology topology;
  tofa::CommGraph graph;
  int random_maps;
};

class Runner {
 public:
  explicit Runner(const Problem& problem) : problem_(problem) {
    request_.graph = &problem.graph;
    request_.topology = &problem.topology;
    request_.slots_per_node = 1;
    bound_ = tofa::free_energy_lower_bound(problem.graph, problem.topology, 1);
  }

  void strategy(const std::string& label, const std::string& name) {
    const auto start = Clock::now();
    const tofa::Placement placement = tofa::make_mapper(name)->map(request_);
    add(label, tofa::free_energy(problem_.graph, problem_.topology, placement),
        seconds_since(start), {});
  }

  void random_mean() {
    const auto start = Clock::now();
    const auto random = tofa::make_mapper("random");
    std::vector<double> ratios;
    for (int seed = 1; seed <= problem_.random_maps; ++seed) {
      request_.seed = seed;
      ratios.push_back(
          tofa::free_energy(problem_.graph, problem_.topology, random->map(request_)) / bound_);
    }
    request_.seed = 1;
    const double mean = std::accumulate(ratios.begin(), ratios.end(), 0.0) / ratios.size();
    double variance = 0;
    for (double r : ratios) variance += (r - mean) * (r - mean);
    variance /= std::max<std::size_t>(1, ratios.size() - 1);
    add("random (mean of " + std::to_string(ratios.size()) + ")", mean * bound_,
        seconds_since(start) / ratios.size(), {{"ratio_stddev", std::sqrt(variance)}});
  }

  void anneal(const std::string& label, std::map<std::string, std::string> parameters) {
    parameters["progress"] = "no";
    request_.parameters = parameters;
    const tofa::anneal::AnnealResult result = tofa::anneal::anneal_placement(
        request_, tofa::anneal::parse_anneal_options(request_.parameters));
    request_.parameters.clear();
    nlohmann::json settings(parameters);
    add(label, result.energy, result.seconds,
        {{"start_ratio", result.start_energy / bound_},
         {"proposals", result.proposals},
         {"accepted", result.accepted},
         {"stages", result.stages},
         {"parameters", settings}});
  }

  nlohmann::json take() {
    return {{"problem", problem_.name},
            {"topology", problem_.topology.describe()},
            {"tasks", problem_.graph.task_count()},
            {"F_min", bound_},
            {"rows", rows_}};
  }

 private:
  void add(const std::string& label, double energy, double seconds, nlohmann::json extra) {
    std::fprintf(stderr, "  %-44s F %10.0f  F/F_min %7.4f  %8.3f s\n", label.c_str(), energy,
                 energy / bound_, seconds);
    nlohmann::json row = {{"method", label},
                          {"F", energy},
                          {"F_over_F_min", energy / bound_},
                          {"seconds", seconds}};
    for (auto& item : extra.items()) row[item.key()] = item.value();
    rows_.push_back(row);
  }

  const Problem& problem_;
  tofa::MappingRequest request_;
  double bound_ = 0;
  nlohmann::json rows_ = nlohmann::json::array();
};

nlohmann::json run_problem(const Problem& problem, bool stencil16, double budget) {
  std::fprintf(stderr, "%s on %s\n", problem.name.c_str(), problem.topology.describe().c_str());
  Runner runner(problem);
  runner.strategy("MPI rank order (default-slurm)", "default-slurm");
  runner.random_mean();
  runner.strategy("Scotch (tofa strategy)", "tofa");
  runner.anneal("grow map (no annealing)", {{"start", "grow"}, {"anneal", "no"}});
  runner.anneal("heuristic map (no annealing)", {{"start", "heuristic"}, {"anneal", "no"}});
  runner.anneal("basic heuristic map (no annealing)", {{"start", "basic"}, {"anneal", "no"}});
  runner.anneal("SA 1 from grow (defaults)", {});
  runner.anneal("SA 1 from random (defaults)", {{"start", "random"}});
  if (!stencil16) {
    runner.anneal("SA 1 from heuristic, local, 100000 sweeps",
                  {{"start", "heuristic"}, {"proposal", "local"}, {"sweeps", "100000"}});
    runner.anneal("SA from grow, divide (limit 0.9)", {{"divide", "yes"}});
  } else {
    const std::string seconds = std::to_string(budget);
    runner.anneal("SA 1 from heuristic, budget " + seconds + " s",
                  {{"start", "heuristic"}, {"budget", seconds}, {"sweeps", "1000000"}});
    runner.anneal("SA from grow, divide (limit 0.9)", {{"divide", "yes"}});
  }
  return runner.take();
}

}  // namespace

int main(int argc, char** argv) {
  double budget = 50;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--budget") == 0 && i + 1 < argc) {
      budget = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: bench_anneal [--budget SECONDS]\n");
      return 2;
    }
  }
  const tofa::Topology torus8 = tofa::Topology::from_spec("torus:8x8x8");
  const tofa::Topology torus16 = tofa::Topology::from_spec("torus:16x16x16");
  const tofa::CommGraph cubic1 = tofa::anneal::cubic_graph({8, 8, 8}, 1, 0);
  const tofa::CommGraph cubic2 = tofa::anneal::cubic_graph({8, 8, 8}, 2, 1);
  const tofa::CommGraph stencil = tofa::stencil_graph({16, 16, 16}, 1);
  const std::vector<Problem> problems = {
      {"Cubic 1", torus8, cubic1, 100},
      {"Cubic 1, shuffled ids", torus8, tofa::with_shuffled_ids(cubic1, 1), 100},
      {"Cubic 2", torus8, cubic2, 100},
      {"Cubic 2, shuffled ids", torus8, tofa::with_shuffled_ids(cubic2, 1), 100},
      {"stencil 16^3", torus16, stencil, 20},
      {"stencil 16^3, shuffled ids", torus16, tofa::with_shuffled_ids(stencil, 1), 20},
  };
  nlohmann::json out = {{"benchmark", "anneal"},
                        {"seed", "Bhanot et al., Optimizing task layout on the Blue Gene/L supercomputer"},
                        {"problems", nlohmann::json::array()}};
  for (const Problem& problem : problems)
    out["problems"].push_back(run_problem(problem, problem.topology.node_count() > 512, budget));
  std::cout << out.dump(2) << "\n";
  return 0;
}
