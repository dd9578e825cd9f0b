// How SimGrid's cross-traffic model treats a multi-hop flow whose links
// carry traffic in the opposite direction.
#pragma once

#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa::sim {

/// One flow A of `bytes` over `hops` links along dimension 0 (+ direction,
/// from node 0), simulated alone and next to one reverse flow per link of A
/// (from the link's head to its tail), all starting together: reverse flows
/// of A's size, then of ten times its size (they last longer than A). With
/// split-duplex links no reverse flow shares a link direction with A, so by
/// link use A should take as long as alone.
struct CrossTrafficRow {
  int hops = 0;
  bool crosstraffic = false;  ///< SimGrid's network/crosstraffic
  double alone = 0;           ///< s, A's completion time alone
  double equal_reverse = 0;   ///< s, A's completion time next to reverse flows of its size
  double long_reverse = 0;    ///< s, the same next to reverse flows ten times its size
};

/// Measures h = 1..max_hops under SMPI's network model (as smpirun sets it),
/// crosstraffic on and off, on the platform at `platform_path` written for
/// `topology` (a full torus). Each simulation runs in a child process, since
/// SimGrid allows one engine per process; the caller must not have created
/// one. Throws Error when dimension 0 is shorter than 2 * max_hops or a
/// simulation fails.
std::vector<CrossTrafficRow> measure_crosstraffic(const Topology& topology,
                                                  const std::string& platform_path, double bytes,
                                                  int max_hops);

}  // namespace tofa::sim
