// Busy-node patterns for allocator and mapper simulations.
#include <random>

#include "alloc/allocators.hpp"
#include "base/error.hpp"

namespace tofa {

std::vector<bool> fragmented_machine(const Topology& topology, Allocator allocator, double fill,
                                     int max_job, unsigned seed) {
  if (!(fill >= 0 && fill <= 1)) throw Error("fragmented machine: fill must be in 0..1");
  if (max_job < 1) throw Error("fragmented machine: max_job must be at least 1");
  const int nodes = topology.node_count();
  std::mt19937 engine(seed);
  std::vector<bool> busy(nodes, false);
  std::vector<std::vector<int>> jobs;
  int used = 0;
  while (used < fill * nodes) {
    const int size = 1 + static_cast<int>(engine() % static_cast<unsigned>(max_job));
    if (size > nodes - used) break;
    jobs.push_back(allocator(topology, busy, size));
    for (int node : jobs.back()) busy[node] = true;
    used += size;
  }
  for (const std::vector<int>& job : jobs)
    if (engine() % 2)
      for (int node : job) busy[node] = false;
  return busy;
}

}  // namespace tofa
