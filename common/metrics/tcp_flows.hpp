// How a flow loads links whose two directions share one bandwidth under TCP
// (LinkSharing=shared; SimGrid's defaults): a flow's share of a link falls
// with its round-trip time, so with its route's hops, and its
// acknowledgements load the reverse route. A flow of b bytes over p hops
// counts b / p on its route's links, both ways, and kAckShare of that on its
// reverse route's, and takes p times the time of the busiest link it uses.
#pragma once

#include <vector>

#include "topology/topology.hpp"

namespace tofa {

/// Of a TCP flow's bytes, what its acknowledgements send back (SimGrid's
/// network/crosstraffic).
constexpr double kAckShare = 0.05;

/// Calls add(link id, usage, hops) for every link the flow of `bytes` from
/// node `from` to `to` loads, as above (`route`: scratch).
template <typename Add>
void visit_tcp_flow(const Topology& topology, int from, int to, double bytes,
                    std::vector<int>& route, Add add) {
  topology.route_link_ids(from, to, route);
  const int hops = static_cast<int>(route.size());
  for (double share : {1.0, kAckShare}) {
    for (int link : route) {
      add(link, share * bytes / hops, hops);
      add(topology.reverse_link_id(link), share * bytes / hops, hops);
    }
    if (share == 1.0) topology.route_link_ids(to, from, route);
  }
}

}  // namespace tofa
