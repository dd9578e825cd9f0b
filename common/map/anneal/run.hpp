// The whole annealing mapping of one request: sites and load bounds, stages
// (one, or the bisection's), starting map, Metropolis per stage.
#pragma once

#include <cstdint>
#include <vector>

#include "map/mapper.hpp"
#include "options.hpp"

namespace tofa {
namespace anneal {

struct AnnealResult {
  Placement placement;
  double lower_bound = 0;    ///< F_min with the run's highest load per node
  double start_energy = 0;   ///< F of the starting map (all stages' starts)
  double energy = 0;         ///< F of `placement`
  int stages = 0;
  std::uint64_t proposals = 0;
  std::uint64_t accepted = 0;
  double seconds = 0;
};

/// Maps request.graph with `options`. Deterministic for request.seed unless
/// options.budget_seconds is set. Throws Error when the tasks do not fit.
AnnealResult anneal_placement(const MappingRequest& request, const AnnealOptions& options);

}  // namespace anneal
}  // namespace tofa
