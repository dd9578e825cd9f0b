#include "problem.hpp"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#include "base/error.hpp"

namespace tofa {
namespace stencil {

StencilProblem make_problem(const MappingRequest& request, const std::string& strategy,
                            Rotation rotation) {
  StencilProblem problem;
  problem.strategy = strategy;
  problem.request = &request;
  const Triple shape = job_shape(request, strategy);
  problem.allocation = make_allocation(request, request.graph->task_count(), strategy);
  const bool rotate = rotation == Rotation::Apply && flag_parameter(problem, "rotate", true);
  problem.job = rotate ? rotate_to_fit(shape, problem.allocation.extent()) : JobGrid(shape);
  return problem;
}

Placement to_placement(const StencilProblem& problem, const std::vector<int>& rank_of_task) {
  const int ranks = problem.allocation.rank_count();
  if (static_cast<int>(rank_of_task.size()) != ranks)
    throw std::logic_error(problem.strategy + ": assignment has the wrong size");
  std::vector<char> taken(ranks, 0);
  Placement placement(ranks);
  for (int task = 0; task < ranks; ++task) {
    const int rank = rank_of_task[task];
    if (rank < 0 || rank >= ranks || taken[rank])
      throw std::logic_error(problem.strategy + ": assignment is not a bijection");
    taken[rank] = 1;
    placement[task] = problem.allocation.rank_node[rank];
  }
  return placement;
}

double average_hops(const StencilProblem& problem, const std::vector<int>& rank_of_task) {
  const CommGraph& graph = *problem.request->graph;
  const RankDistance distance(*problem.request->topology, problem.allocation);
  long long hops = 0;
  for (int task = 0; task < graph.task_count(); ++task)
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      const int other = graph.adjacency()[k];
      if (other > task) hops += distance(rank_of_task[task], rank_of_task[other]);
    }
  return graph.edge_count() == 0 ? 0.0 : static_cast<double>(hops) / graph.edge_count();
}

std::vector<int> pair_in_order(const std::vector<int>& tasks, const std::vector<int>& ranks) {
  std::vector<int> rank_of_task(tasks.size());
  for (std::size_t k = 0; k < tasks.size(); ++k) rank_of_task[tasks[k]] = ranks[k];
  return rank_of_task;
}

namespace {

std::string bad_parameter(const StencilProblem& problem, const std::string& key,
                          const std::string& expected, const std::string& found) {
  return problem.strategy + ": parameter " + key + ": expected " + expected + ", found '" +
         found + "'";
}

}  // namespace

bool flag_parameter(const StencilProblem& problem, const std::string& key, bool fallback) {
  const std::string text = parameter(*problem.request, key);
  if (text.empty()) return fallback;
  if (text == "yes" || text == "true" || text == "1") return true;
  if (text == "no" || text == "false" || text == "0") return false;
  throw Error(bad_parameter(problem, key, "yes or no", text));
}

long long count_parameter(const StencilProblem& problem, const std::string& key,
                          long long fallback) {
  const std::string text = parameter(*problem.request, key);
  if (text.empty()) return fallback;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text[0] < '0' || text[0] > '9' || *end != '\0' || errno == ERANGE)
    throw Error(bad_parameter(problem, key, "a non-negative integer", text));
  return value;
}

double number_parameter(const StencilProblem& problem, const std::string& key, double fallback) {
  const std::string text = parameter(*problem.request, key);
  if (text.empty()) return fallback;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text[0] < '0' || text[0] > '9' || *end != '\0' || !(value >= 0) || value > 1e9)
    throw Error(bad_parameter(problem, key, "a non-negative number", text));
  return value;
}

Placement StencilMapper::map(const MappingRequest& request) const {
  if (request.graph == nullptr || request.topology == nullptr) check_capacity(request);
  if (request.graph->task_count() == 0) return {};
  const StencilProblem problem = make_problem(request, name_, rotation_);
  return to_placement(problem, assign_(problem));
}

}  // namespace stencil
}  // namespace tofa
