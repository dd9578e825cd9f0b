#include "faults/route_link_costs.hpp"

#include <string>

#include "base/error.hpp"

namespace tofa {

RouteLinkCosts::RouteLinkCosts(const Topology& topology, const std::vector<double>& costs)
    : topology_(&topology), costs_(costs), dims_(topology.dims()) {
  if (costs.size() != static_cast<std::size_t>(topology.link_slot_count()))
    throw Error("link costs: " + std::to_string(costs.size()) + " entries, expected " +
                std::to_string(topology.link_slot_count()));
  int stride = 1;
  for (int size : dims_) {
    stride_.push_back(stride);
    slot_.emplace_back(topology.node_count() / size, -1);
    stride *= size;
  }
}

const double* RouteLinkCosts::row(int d, int line, int base) {
  const int size = dims_[d];
  int& slot = slot_[d][line];
  if (slot < 0) {
    slot = static_cast<int>(rows_.size());
    rows_.resize(rows_.size() + 2 * (2 * size + 1));
    double* up = &rows_[slot];
    double* down = up + 2 * size + 1;
    up[0] = down[0] = 0;
    for (int k = 0; k < 2 * size; ++k) {
      const int from_up = base + (k % size) * stride_[d];
      const int from_down = base + ((size - k % size) % size) * stride_[d];
      const int dimensions = static_cast<int>(dims_.size());
      up[k + 1] = up[k] + costs_[(from_up * dimensions + d) * 2];
      down[k + 1] = down[k] + costs_[(from_down * dimensions + d) * 2 + 1];
    }
  }
  return &rows_[slot];
}

double RouteLinkCosts::sum(int from, int to) {
  double total = 0;
  int current = from;
  for (int d = 0; d < static_cast<int>(dims_.size()); ++d) {
    const int size = dims_[d], stride = stride_[d];
    const int here = current / stride % size, there = to / stride % size;
    if (here == there) continue;
    const int base = current - here * stride;
    const int line = base % stride + base / (stride * size) * stride;
    const double* prefix = row(d, line, base);
    if (topology_->hop_direction(d, here, there) > 0) {
      total += prefix[here + (there - here + size) % size] - prefix[here];
    } else {
      const double* down = prefix + 2 * size + 1;
      const int start = (size - here) % size;
      total += down[start + (here - there + size) % size] - down[start];
    }
    current = base + there * stride;
  }
  return total;
}

RouteLinkCosts& RouteLinkCosts::for_thread(const Topology& topology,
                                           const std::shared_ptr<const std::vector<double>>& costs) {
  struct Cached {
    std::shared_ptr<const std::vector<double>> costs;  // held: its address stays its own
    std::vector<int> dims;
    std::vector<bool> wrap;
    std::unique_ptr<RouteLinkCosts> tables;
  };
  thread_local Cached cached;
  if (!cached.tables || cached.costs != costs || cached.dims != topology.dims() ||
      cached.wrap != topology.wrap()) {
    cached.tables.reset();
    cached.costs = costs;
    cached.dims = topology.dims();
    cached.wrap = topology.wrap();
    cached.tables = std::make_unique<RouteLinkCosts>(topology, *costs);
  }
  cached.tables->topology_ = &topology;  // the same shape, maybe another object
  return *cached.tables;
}

}  // namespace tofa
