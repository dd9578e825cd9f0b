// Scotch decomposition-defined target architectures with explicit terminal
// distances ("deco 0"), for costs Scotch cannot derive from a graph: the
// Equation 1 cost of a dimension-order route, which goes through a faulty
// node where a shortest path in a weighted graph would go around it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "map/scotch/scotch_objects.hpp"

namespace tofa {
namespace scotch {

/// Largest node set given explicit distances: the n^2 / 2 distances are
/// written, parsed and expanded by Scotch, and the decomposition refined by
/// swaps; a new target of 128 nodes takes ~10 ms, 256 nodes ~40 ms, too
/// long for a job start in slurmctld (candidate sets differ per job).
constexpr std::size_t kExplicitDistanceLimit = 128;

/// Symmetric distances between `count` terminals, row-major count x count,
/// >= 1 off the diagonal.
struct DistanceTable {
  int count = 0;
  std::vector<long long> values;
  long long at(int i, int j) const { return values[static_cast<std::size_t>(i) * count + j]; }
};

/// The "deco 0" text of the terminals 0 .. count-1 (2 to
/// kExplicitDistanceLimit of them), terminal i labelled i, at coordinates
/// coords[i]. Scotch maps by recursive bipartitioning along the
/// decomposition, so its halves must be close by the distances: each set is
/// cut along its widest coordinate, then the cut is improved by swaps that
/// lower the sum of the distances within the halves.
std::string deco_text(const DistanceTable& distances,
                      const std::vector<std::vector<int>>& coords);

/// deco_text loaded by Scotch.
std::unique_ptr<Arch> explicit_distance_arch(const DistanceTable& distances,
                                             const std::vector<std::vector<int>>& coords);

}  // namespace scotch
}  // namespace tofa
