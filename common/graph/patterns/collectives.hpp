// The messages of one collective operation among a group of tasks, with the
// algorithm named: the building blocks of the allreduce, bcast and alltoall
// patterns and of model training's groups. Recursive doubling, binomial trees
// and pairwise exchange send exactly what libtofaprof records for MPI's own
// collectives (tools/profile/tofaprof_collectives.c), so a generated graph
// and a profiled run of the same program agree.
#pragma once

#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace tofa::patterns {

/// Member i of a group is task group[i].
using Group = std::vector<int>;

/// Appends `times` repetitions of the operation's messages to `out` (bytes
/// and message counts both scaled by times). `bytes` is the buffer size n.
struct Collective {
  const Group& group;
  double bytes;
  double times = 1;
  std::vector<CommEdge>& out;
};

/// Reduce-scatter then allgather around the ring: member r sends 2(p-1)
/// messages of n/p to member r+1 (mod p).
void ring_allreduce(const Collective& c);
/// q = largest power of two <= p, e = p - q: members below 2e fold in
/// (even r -> r+1), the q active ones exchange n with partner s XOR m for
/// m = 1, 2, .., q/2 (s their rank among the active), odd r < 2e fold out
/// (r -> r-1). Every message n.
void recursive_doubling_allreduce(const Collective& c);
/// Binomial-tree reduce to member 0 (v -> v - lowbit(v)), then binomial bcast
/// from it: every message n.
void binomial_allreduce(const Collective& c);
/// From member `root`, v = (r - root) mod p: v sends to v+m for every power
/// of two m < lowbit(v) (every m < p for the root) with v+m < p.
void binomial_bcast(const Collective& c, int root);
/// The root sends n to every other member.
void linear_bcast(const Collective& c, int root);
/// A chain from the root: member v sends n to member v+1 (relative to root).
void pipeline_bcast(const Collective& c, int root);
/// Every member sends n to every other member.
void pairwise_alltoall(const Collective& c);

/// Runs the allreduce named by `algorithm` (ring, recursive-doubling or
/// binomial).
void allreduce(const std::string& algorithm, const Collective& c);

}  // namespace tofa::patterns
