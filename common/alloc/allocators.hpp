// Processor allocators of seed Bunde's trace simulation (section 5.1): which
// free nodes a job gets on a machine where other jobs keep some nodes busy.
// They produce the non-contiguous allocations the stencil mappers work on.
#pragma once

#include <vector>

#include "topology/topology.hpp"

namespace tofa {

/// MC1x1 (Bender et al.): for every free node as a center, take free nodes in
/// shells of growing L-infinity distance (per-axis ring distance on wrapped
/// axes), inside a shell nearer in L1 first, then lower id; the center whose
/// `count` nodes have the smallest sum of shell numbers wins (ties: smaller
/// sum of L1 distances, then lower center id). With no busy nodes on a 2D mesh
/// this is a square of odd side around the center, the outer shell partly
/// filled. Returns the nodes in that shell order.
/// `busy` has one entry per node (empty: all free). Throws Error when `count`
/// is below 1 or above the free nodes, or `busy` has the wrong size.
/// O(free nodes^2): the seed's implementation was cubic.
std::vector<int> allocate_mc1x1(const Topology& topology, const std::vector<bool>& busy,
                                int count);

/// The seed's "snake" (Figure 15): a boustrophedon walk that moves along the
/// machine's shortest axis first (ties: lower axis), turning back at each
/// end, then along the next shortest. Consecutive nodes are neighbours.
std::vector<int> snake_curve(const Topology& topology);

/// Snake best fit (Lo et al., Leung et al.): the free nodes form runs along
/// snake_curve; the smallest run with at least `count` nodes gives its first
/// `count` nodes (ties: the earliest run). Without such a run, the `count`
/// consecutive free nodes (in curve order) with the smallest span along the
/// curve are taken (ties: the earliest). Returns the nodes in curve order.
/// Same errors as allocate_mc1x1. O(nodes).
std::vector<int> allocate_snake_best_fit(const Topology& topology, const std::vector<bool>& busy,
                                         int count);

/// allocate_mc1x1, allocate_snake_best_fit, or any allocator of that form.
using Allocator = std::vector<int> (*)(const Topology& topology, const std::vector<bool>& busy,
                                       int count);

/// A machine fragmented by earlier jobs, standing in for the seed's trace
/// replay: jobs of 1..max_job nodes (sizes from a std::mt19937 seeded with
/// `seed`) are placed with `allocator` until at least `fill` (0..1) of the
/// nodes are busy or the next job does not fit, then each job finishes with
/// probability 1/2. Returns the busy flags. Deterministic for a seed.
std::vector<bool> fragmented_machine(const Topology& topology, Allocator allocator, double fill,
                                     int max_job, unsigned seed);

}  // namespace tofa
