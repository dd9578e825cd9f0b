#include "translate_clear.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "faults/faults.hpp"

namespace tofa {

Placement translate_clear(const MappingRequest& request, const Placement& placement,
                          RouteFaults& faults) {
  const Topology& topology = *request.topology;
  if (!topology.is_full_torus() || placement.empty()) return {};
  const std::vector<int>& dims = topology.dims();
  const int d = topology.dimension_count();

  std::vector<int> nodes = placement;  // its distinct nodes
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  std::vector<std::vector<int>> at;
  at.reserve(nodes.size());
  for (int node : nodes) at.push_back(topology.coords(node));
  std::vector<int> candidates = request.candidate_nodes;  // sorted, for lookups
  std::sort(candidates.begin(), candidates.end());
  const auto usable = [&](int node) {
    if (!candidates.empty() && !std::binary_search(candidates.begin(), candidates.end(), node))
      return false;
    return request.outage.empty() || !(request.outage[node] > 0);
  };

  // Offsets within a cube of about kMaxTranslations around none, smallest
  // first (the sum over dimensions of the steps), none left out.
  int side = 1;
  while (std::pow(side + 1, d) <= kMaxTranslations) ++side;
  std::vector<std::vector<int>> steps(d);  // per dimension: 0, 1, -1, 2, -2, ...
  for (int k = 0; k < d; ++k)
    for (int i = 0; i < std::min(side, dims[k]); ++i) steps[k].push_back(i % 2 ? (i + 1) / 2 : -(i / 2));
  std::vector<std::vector<int>> offsets{{}};
  for (int k = 0; k < d; ++k) {
    std::vector<std::vector<int>> longer;
    for (const auto& offset : offsets)
      for (int step : steps[k]) {
        longer.push_back(offset);
        longer.back().push_back(step);
      }
    offsets.swap(longer);
  }
  const auto size_of = [](const std::vector<int>& offset) {
    int size = 0;
    for (int step : offset) size += std::abs(step);
    return size;
  };
  std::stable_sort(offsets.begin(), offsets.end(), [&](const auto& a, const auto& b) {
    return size_of(a) < size_of(b);
  });

  std::vector<int> moved(nodes.size());
  std::vector<int> c(d);
  int checks = 0;
  for (const std::vector<int>& shift : offsets) {
    if (size_of(shift) == 0) continue;
    bool fits = true;
    for (std::size_t i = 0; fits && i < nodes.size(); ++i) {
      for (int k = 0; k < d; ++k) c[k] = ((at[i][k] + shift[k]) % dims[k] + dims[k]) % dims[k];
      moved[i] = topology.node_at(c);
      fits = usable(moved[i]);
    }
    if (!fits) continue;
    Placement out(placement.size());
    for (std::size_t t = 0; t < placement.size(); ++t)
      out[t] = moved[std::lower_bound(nodes.begin(), nodes.end(), placement[t]) - nodes.begin()];
    if (request.outage.empty() ||
        expected_abort_probability(topology, *request.graph, out, request.outage.values(), faults) == 0)
      return out;
    if (++checks == kMaxTranslationChecks) break;
  }
  return {};
}

}  // namespace tofa
