#include "cubic_problems.hpp"

namespace tofa {
namespace anneal {

CommGraph cubic_graph(const std::vector<int>& dims, double nearest, double next_nearest) {
  int count = 1;
  for (int length : dims) count *= length;
  std::vector<CommEdge> edges;
  std::vector<int> coords(dims.size());
  for (int domain = 0; domain < count; ++domain) {
    int rest = domain;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      coords[d] = rest % dims[d];
      rest /= dims[d];
    }
    int stride = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      for (int distance = 1; distance <= 2; ++distance) {
        const double bytes = distance == 1 ? nearest : next_nearest;
        if (!(bytes > 0)) continue;
        for (int sign : {+1, -1}) {
          const int moved = ((coords[d] + sign * distance) % dims[d] + dims[d]) % dims[d];
          if (moved != coords[d])
            edges.push_back({domain, domain + (moved - coords[d]) * stride, bytes, 1});
        }
      }
      stride *= dims[d];
    }
  }
  return CommGraph::from_directed_edges(count, edges);
}

}  // namespace anneal
}  // namespace tofa
