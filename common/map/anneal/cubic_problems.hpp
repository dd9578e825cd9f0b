// The seed's test problems Cubic 1 and Cubic 2: one domain per point of a
// periodic grid, sending to its straight-line neighbours.
#pragma once

#include <vector>

#include "graph/graph.hpp"

namespace tofa {
namespace anneal {

/// Every domain sends `nearest` to its 2 neighbours at distance 1 and
/// `next_nearest` to its 2 at distance 2 along each dimension of a periodic
/// grid (no turns). Cubic 1: next_nearest = 0; Cubic 2: nearest = 2,
/// next_nearest = 1. Domain id = x + X*(y + Y*z). Coinciding targets on short
/// rings add up.
CommGraph cubic_graph(const std::vector<int>& dims, double nearest, double next_nearest);

}  // namespace anneal
}  // namespace tofa
