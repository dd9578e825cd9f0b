// What every stencil strategy works on: the job grid, its ranks, and the
// shared plumbing from a MappingRequest to a Placement.
#pragma once

#include <string>
#include <vector>

#include "allocation.hpp"
#include "job_grid.hpp"
#include "map/mapper.hpp"

namespace tofa {
namespace stencil {

/// One stencil mapping problem. Strategies return `rank_of_task`, a bijection
/// from task ids to ranks of `allocation`.
struct StencilProblem {
  std::string strategy;  ///< registry name, used in error messages
  const MappingRequest* request = nullptr;
  JobGrid job{Triple{1, 1, 1}};
  Allocation allocation;
};

/// Whether a strategy takes part in the rotation step (all but BASELINE and
/// GROUPING do); the parameter rotate=no turns it off for every strategy.
enum class Rotation { Never, Apply };

/// Shape (parameter 'stencil' or inferred), allocation, and the job rotated
/// to fit the allocation's bounding box when `rotation` is Apply.
StencilProblem make_problem(const MappingRequest& request, const std::string& strategy,
                            Rotation rotation);

/// task -> node. Throws std::logic_error when rank_of_task is not a bijection
/// (a bug in a strategy, never bad input).
Placement to_placement(const StencilProblem& problem, const std::vector<int>& rank_of_task);

/// Mean hops over the communication graph's edges (unweighted, the seed's
/// "average hops") when task t runs on rank rank_of_task[t]; 0 without edges.
double average_hops(const StencilProblem& problem, const std::vector<int>& rank_of_task);

/// rank_of_task[tasks[k]] = ranks[k]: the linear algorithms' pairing of two orders.
std::vector<int> pair_in_order(const std::vector<int>& tasks, const std::vector<int>& ranks);

/// The request's parameter `key` as yes/no (also true/false, 1/0).
/// Throws Error "<strategy>: parameter KEY: expected yes or no, found 'TEXT'".
bool flag_parameter(const StencilProblem& problem, const std::string& key, bool fallback);
/// The request's parameter `key` as a non-negative integer.
/// Throws Error "<strategy>: parameter KEY: expected a non-negative integer, found 'TEXT'".
long long count_parameter(const StencilProblem& problem, const std::string& key,
                          long long fallback);
/// The request's parameter `key` as a non-negative number.
/// Throws Error "<strategy>: parameter KEY: expected a non-negative number, found 'TEXT'".
double number_parameter(const StencilProblem& problem, const std::string& key, double fallback);

/// A strategy's core: the rank of each task.
using Assignment = std::vector<int> (*)(const StencilProblem& problem);

/// The Mapper every stencil strategy is: build the problem, assign, convert.
class StencilMapper : public Mapper {
 public:
  StencilMapper(const char* name, Rotation rotation, Assignment assign)
      : name_(name), rotation_(rotation), assign_(assign) {}
  Placement map(const MappingRequest& request) const override;

 private:
  const char* name_;
  Rotation rotation_;
  Assignment assign_;
};

}  // namespace stencil
}  // namespace tofa
