// Hostfile reading and the smpirun machine file.
#include "hostfile.hpp"

#include <fstream>

#include "base/error.hpp"
#include "platform.hpp"

namespace tofa::sim {

std::vector<int> read_hostfile(const std::string& path, const Topology& topology, int ranks) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open hostfile '" + path + "'");
  std::vector<int> placement;
  std::string name;
  int line = 0;
  while (std::getline(in, name)) {
    ++line;
    const auto first = name.find_first_not_of(" \t");
    name.erase(0, first == std::string::npos ? name.size() : first);
    name.erase(name.find_last_not_of(" \t\r") + 1);
    if (name.empty() || name[0] == '#') continue;
    const int node = topology.node_by_name(name);
    if (node < 0) throw ParseError(path, line, 1, "unknown node '" + name + "'");
    placement.push_back(node);
  }
  if (in.bad()) throw Error("cannot read hostfile '" + path + "'");
  if (ranks >= 0 && static_cast<int>(placement.size()) != ranks)
    throw ParseError(path, line, 0,
                     "expected " + std::to_string(ranks) + " ranks (one node per line), found " +
                         std::to_string(placement.size()));
  return placement;
}

void write_smpi_hostfile(const std::string& path, const std::vector<int>& placement) {
  std::ofstream out(path);
  for (int node : placement) out << host_name(node) << '\n';
  if (!out.flush()) throw Error("cannot write '" + path + "'");
}

}  // namespace tofa::sim
