// tofactl links --svg: the torus with the running jobs' load on every link
// and each node's outage probability.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa {

/// Tori of more nodes are refused: their drawing would not be looked at.
constexpr int kMaxLinksSvgNodes = 32768;

/// The id of the directed link from `from` to its neighbour `to`
/// (Topology::link_id); -1 when they are no neighbours.
int link_between(const Topology& topology, int from, int to);

/// `loads`: bytes per directed link (Topology::link_id); `outage`: one
/// probability per node, or empty. A link in dimension 0 or 1 is the half
/// of the segment between its two nodes on its source's side (so both
/// directions show); a link along a higher dimension is a dot in its
/// source's cell (+ above, - below). Colour and width grow with the load.
/// Throws Error above kMaxLinksSvgNodes nodes or on a size mismatch.
void write_links_svg(std::ostream& out, const Topology& topology, const std::vector<double>& loads,
                     const std::vector<double>& outage, const std::string& title);

}  // namespace tofa
