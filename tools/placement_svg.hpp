// Draws a placement on the torus as SVG: one panel per plane of dimension 2
// (and higher), each panel a grid of dimension 0 (columns) by dimension 1 (rows).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa {

/// Cells show how many tasks each node runs (darker = more), faulty nodes
/// (outage > 0) have a red border, unused candidates are light grey.
void write_placement_svg(std::ostream& out, const Topology& topology,
                         const std::vector<int>& placement, const std::vector<double>& outage,
                         const std::string& title);

}  // namespace tofa
