#include "free_nodes.hpp"

#include "base/error.hpp"

namespace tofa {
namespace alloc {

std::vector<int> free_nodes(const Topology& topology, const std::vector<bool>& busy, int count,
                            const std::string& allocator) {
  const int nodes = topology.node_count();
  if (!busy.empty() && busy.size() != static_cast<std::size_t>(nodes)) {
    throw Error(allocator + ": busy has " + std::to_string(busy.size()) +
                " entries, expected one per node (" + std::to_string(nodes) + ")");
  }
  std::vector<int> result;
  for (int node = 0; node < nodes; ++node)
    if (busy.empty() || !busy[node]) result.push_back(node);
  if (count < 1) throw Error(allocator + ": cannot allocate " + std::to_string(count) + " nodes");
  if (count > static_cast<int>(result.size())) {
    throw Error(allocator + ": cannot allocate " + std::to_string(count) + " nodes, only " +
                std::to_string(result.size()) + " are free");
  }
  return result;
}

}  // namespace alloc
}  // namespace tofa
