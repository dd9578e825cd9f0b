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

// Routes are dimension-ordered and the direction along a dimension depends
// only on the two coordinates: R(a,b) is a segment along dimension 0 to b's
// coordinate, then one along dimension 1 from there, and so on. The faulty
// links of every segment come from one table per dimension, so a pair costs
// O(dimensions) instead of a route walk.
void DistanceTable::add_fault_penalty(const Topology& topology, const std::vector<double>& outage,
                                      double penalty) {
  if (!(penalty > 0)) return;
  const int node_count = topology.node_count();
  const auto faulty = [&](int node) { return outage[node] > 0; };
  // segment[d][v * L_d + t]: faulty links from node v along dimension d to coordinate t.
  std::vector<std::vector<std::uint16_t>> segment(dims_);
  std::vector<int> stride(dims_, 1);
  std::vector<int> path;
  for (int d = 0; d < dims_; ++d) {
    if (d > 0) stride[d] = stride[d - 1] * topology.dims()[d - 1];
    const int length = topology.dims()[d];
    segment[d].assign(static_cast<std::size_t>(node_count) * length, 0);
    for (int v = 0; v < node_count; ++v) {
      const int here = (v / stride[d]) % length;
      for (int t = 0; t < length; ++t) {
        if (t == here) continue;
        topology.route_nodes(v, v + (t - here) * stride[d], path);
        int count = 0;
        for (std::size_t k = 0; k + 1 < path.size(); ++k)
          count += faulty(path[k]) || faulty(path[k + 1]);
        segment[d][static_cast<std::size_t>(v) * length + t] = static_cast<std::uint16_t>(count);
      }
    }
  }
  // Faulty links of R(a,b) into penalty_[a][b], then both directions halved.
  const std::size_t n = nodes_.size();
  penalty_.assign(n * n, 0.0f);
  bool any = false;
  for (std::size_t a = 0; a < n; ++a) {
    const std::int16_t* ca = &coords_[a * dims_];
    for (std::size_t b = 0; b < n; ++b) {
      const std::int16_t* cb = &coords_[b * dims_];
      int current = nodes_[a];
      int count = 0;
      for (int d = 0; d < dims_; ++d) {
        count += segment[d][static_cast<std::size_t>(current) * topology.dims()[d] + cb[d]];
        current += (cb[d] - ca[d]) * stride[d];
      }
      penalty_[a * n + b] = static_cast<float>(count);
      any = any || count > 0;
    }
  }
  if (!any) {
    penalty_.clear();
    return;
  }
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      penalty_[a * n + b] = penalty_[b * n + a] =
          static_cast<float>(penalty * (penalty_[a * n + b] + penalty_[b * n + a]) / 2);
}

}  // namespace anneal
}  // namespace tofa
