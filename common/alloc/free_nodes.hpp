// Argument checks and the free-node list shared by the allocators.
#pragma once

#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa {
namespace alloc {

/// The nodes whose `busy` entry is false (all when `busy` is empty), in id
/// order, after checking the arguments. Throws Error with `allocator` as prefix.
std::vector<int> free_nodes(const Topology& topology, const std::vector<bool>& busy, int count,
                            const std::string& allocator);

}  // namespace alloc
}  // namespace tofa
