// Starting placements for annealing: the seed's heuristic map, MPI rank
// order, and a random map. Each places the tasks of one stage (all tasks, or
// one subgraph of the divide-and-conquer) that are not placed yet, keeping
// the upper load bounds, and leaves other tasks where they are.
#pragma once

#include <vector>

#include "placement_state.hpp"
#include "random_stream.hpp"
#include "site_neighbourhood.hpp"

namespace tofa {
namespace anneal {

enum class StartKind { Heuristic, RankOrder, Random };

/// "heuristic", "rank" or "random"; throws Error otherwise.
StartKind parse_start_kind(const std::string& text);

/// The seed's heuristic: tasks by increasing total traffic c(i) (Equation 2);
/// an unplaced task goes next to its heaviest placed partner (or to the
/// previous such task, or to the first site), then its unplaced partners by
/// decreasing traffic onto the same site or the nearest site with room
/// (its torus neighbours first).
void heuristic_start(PlacementState& state, const SiteNeighbourhood& around,
                     const std::vector<int>& stage);

/// Tasks in id order fill the sites in site order (Slurm's block layout).
void rank_order_start(PlacementState& state, const std::vector<int>& stage);

/// Tasks in id order on the free slots, shuffled.
void random_start(PlacementState& state, const std::vector<int>& stage, RandomStream& random);

void start(StartKind kind, PlacementState& state, const SiteNeighbourhood& around,
           const std::vector<int>& stage, RandomStream& random);

}  // namespace anneal
}  // namespace tofa
