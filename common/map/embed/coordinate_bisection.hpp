// Recursive coordinate bisection of tasks that have coordinates (an
// embedding) onto nodes of a torus or mesh: both sets are cut in two again
// and again, the nodes across their longest extent, the tasks along the
// embedding axis paired with that torus dimension, so that tasks close in
// the embedding land on nodes close in the torus.
#pragma once

#include <vector>

#include "topology/topology.hpp"

namespace tofa {
namespace embed {

/// task -> node. `coords`: row-major tasks x `axes`, axis 0 the widest.
/// Axis i is paired, once for the whole job, with the torus dimension of the
/// i-th largest extent over `nodes` (a wrapping dimension is measured from
/// the end of its largest unused gap, so a set of nodes across the wrap is
/// one block). Every node takes at most `slots` tasks; tasks split between
/// the two halves of a cut in proportion to their nodes. Deterministic.
/// Requires tasks <= slots x nodes.
std::vector<int> coordinate_bisection(const std::vector<double>& coords, int axes,
                                      const Topology& topology, const std::vector<int>& nodes,
                                      int slots);

}  // namespace embed
}  // namespace tofa
