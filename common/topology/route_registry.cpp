// Node -> the routes that pass through it, for fault-aware cost models.
#include <algorithm>
#include <string>

#include "base/error.hpp"
#include "topology/topology.hpp"

namespace tofa {

RouteRegistry::RouteRegistry(const Topology& topology, const std::vector<int>& endpoints)
    : through_(topology.node_count()) {
  std::vector<int> nodes = endpoints;
  if (nodes.empty()) {
    nodes.resize(topology.node_count());
    for (int id = 0; id < topology.node_count(); ++id) nodes[id] = id;
  }
  for (int node : nodes)
    if (node < 0 || node >= topology.node_count())
      throw Error("route endpoint " + std::to_string(node) + " is outside 0.." +
                  std::to_string(topology.node_count() - 1));
  // Sorted and unique, so every list comes out in (from, to) order without repeats.
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  for (int from : nodes)
    for (int to : nodes) {
      if (from == to) continue;
      for (int hop : topology.route(from, to).intermediate_nodes)
        through_[hop].emplace_back(from, to);
    }
}

}  // namespace tofa
