#include "distance_table.hpp"

#include <cmath>
#include <limits>

#include "../../tofa/error.hpp"

namespace tofa {
namespace anneal {

DistanceTable::DistanceTable(const Topology& topology, const std::vector<int>& nodes,
                             DistanceMetric metric, bool wrap_all)
    : nodes_(nodes), metric_(metric), dims_(topology.dimension_count()) {
  int largest_square_sum = 0;
  for (int d = 0; d < dims_; ++d) {
    const int length = topology.dims()[d];
    if (length > std::numeric_limits<std::int16_t>::max())
      throw Error("dimension " + std::to_string(d) + " has " + std::to_string(length) +
                  " nodes, more than annealing supports (32767)");
    const bool ring = wrap_all || topology.wrap()[d];
    std::vector<int> steps(2 * length - 1);
    int longest = 0;
    for (int difference = -(length - 1); difference <= length - 1; ++difference) {
      const int straight = std::abs(difference);
      const int step = ring ? std::min(straight, length - straight) : straight;
      steps[difference + length - 1] = step;
      longest = std::max(longest, step);
    }
    axis_.push_back(std::move(steps));
    offset_.push_back(length - 1);
    largest_square_sum += longest * longest;
  }
  coords_.reserve(nodes.size() * dims_);
  for (int node : nodes) {
    if (node < 0 || node >= topology.node_count())
      throw Error("node " + std::to_string(node) + " is outside 0.." +
                  std::to_string(topology.node_count() - 1));
    for (int c : topology.coords(node)) coords_.push_back(static_cast<std::int16_t>(c));
  }
  if (metric == DistanceMetric::Euclidean) {
    root_.resize(largest_square_sum + 1);
    for (int s = 0; s <= largest_square_sum; ++s) root_[s] = std::sqrt(static_cast<double>(s));
  }
}

}  // namespace anneal
}  // namespace tofa
