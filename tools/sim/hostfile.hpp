// Machine files: what tofa-map --hostfile writes (line i = node of rank i).
#pragma once

#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa::sim {

/// Reads a hostfile: line i names the node of rank i (the topology's names,
/// e.g. "n5" or "n005" from a tofa.conf); blank lines and lines starting
/// with '#' are skipped. Throws ParseError at an unknown node, or when the
/// file does not have exactly `ranks` nodes (any count when ranks < 0).
std::vector<int> read_hostfile(const std::string& path, const Topology& topology, int ranks);

/// Writes the same placement for smpirun: line i = SimGrid host of rank i.
void write_smpi_hostfile(const std::string& path, const std::vector<int>& placement);

}  // namespace tofa::sim
