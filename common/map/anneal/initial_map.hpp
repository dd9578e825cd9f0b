// Starting placements for annealing: the seed's heuristic map, MPI rank
// order, and a random map. Each places the tasks of one stage (all tasks, or
// one subgraph of the divide-and-conquer) that are not placed yet, keeping
// the upper load bounds, and leaves other tasks where they are.
#pragma once

#include <chrono>
#include <vector>

#include "placement_state.hpp"
#include "random_stream.hpp"
#include "site_neighbourhood.hpp"

namespace tofa {
namespace anneal {

using Deadline = std::chrono::steady_clock::time_point;

/// `seconds` after `from`; Deadline::max() (no limit) when seconds is not positive.
inline Deadline deadline_after(Deadline from, double seconds) {
  if (!(seconds > 0)) return Deadline::max();
  return from + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                    std::chrono::duration<double>(seconds));
}

enum class StartKind { Grow, Heuristic, BasicHeuristic, RankOrder, Random, Given };

/// "grow", "heuristic", "basic", "rank", "random" or "scotch" (Given, the placement
/// of the tofa strategy); throws Error otherwise.
StartKind parse_start_kind(const std::string& text);

/// `anchor` itself, else its first torus neighbour with room, else the
/// nearest site with room (lowest site index among equals); the first site
/// with room when `anchor` < 0. Throws Error when no site has room.
int nearest_with_room(const PlacementState& state, const SiteNeighbourhood& around, int anchor);

/// The tasks of `stage` by increasing total traffic c(i) (Equation 2),
/// equal ones in stage order.
std::vector<int> lightest_first(const CommGraph& graph, const std::vector<int>& stage);

/// The seed's heuristic as written: tasks by increasing total traffic c(i)
/// (Equation 2); an unplaced task goes next to its heaviest placed partner
/// (or to the previous such task, or to the first site), then its unplaced
/// partners by decreasing traffic onto the same site or the nearest site
/// with room (its torus neighbours first).
void basic_heuristic_start(PlacementState& state, const SiteNeighbourhood& around,
                           const std::vector<int>& stage);

/// The refinement the seed suggests: the next task to handle is the one with
/// the most traffic to tasks already placed (the smallest c(i) when none has
/// any), and each task goes to the site at or around its anchor (itself, or
/// the task whose partners are being placed) that is closest to its placed
/// partners. Grows the placement outward like a crystal.
void heuristic_start(PlacementState& state, const SiteNeighbourhood& around,
                     const std::vector<int>& stage);

/// heuristic_start with one step of look-ahead (grow_start.cpp): tasks are
/// placed one at a time, the one with the most traffic to placed tasks
/// first, each on the site near its placed partners that minimizes its cost
/// plus the best cost each of its unplaced partners could still reach next
/// to it. One attempt grows on all edges, one on each heavy-edge threshold
/// (distinct weights, or the heaviest half and fifth); the remaining
/// `attempts` break ties at random on the best threshold. The lowest-energy
/// result is kept, and no attempt follows one at or below `good_enough` or
/// starts after `deadline` or `retry_deadline` (the first always runs). Past
/// `deadline` the attempt under way hurries.
void grow_start(PlacementState& state, const SiteNeighbourhood& around,
                const std::vector<int>& stage, int attempts, double good_enough,
                RandomStream& random, Deadline deadline = Deadline::max(),
                Deadline retry_deadline = Deadline::max());

/// Tasks in id order fill the sites in site order (Slurm's block layout).
void rank_order_start(PlacementState& state, const std::vector<int>& stage);

/// Tasks in id order on the free slots, shuffled.
void random_start(PlacementState& state, const std::vector<int>& stage, RandomStream& random);

/// Each task where `nodes` puts it when that node is a site with room, else
/// on the nearest site with room.
void given_start(PlacementState& state, const SiteNeighbourhood& around,
                 const std::vector<int>& stage, const std::vector<int>& nodes);

/// `given` is only used by StartKind::Given, `attempts`, `good_enough` and
/// the deadlines by StartKind::Grow.
void start(StartKind kind, PlacementState& state, const SiteNeighbourhood& around,
           const std::vector<int>& stage, RandomStream& random, const std::vector<int>& given,
           int attempts, double good_enough, Deadline deadline = Deadline::max(),
           Deadline retry_deadline = Deadline::max());

}  // namespace anneal
}  // namespace tofa
