#include "linear_order.hpp"

#include <algorithm>
#include <numeric>

namespace tofa {
namespace stencil {

std::vector<int> tasks_in_order(const JobGrid& job, const Triple& nesting) {
  const Triple& dims = job.dims();
  std::vector<int> tasks;
  tasks.reserve(job.task_count());
  Triple point{0, 0, 0};
  for (point[nesting[2]] = 0; point[nesting[2]] < dims[nesting[2]]; ++point[nesting[2]])
    for (point[nesting[1]] = 0; point[nesting[1]] < dims[nesting[1]]; ++point[nesting[1]])
      for (point[nesting[0]] = 0; point[nesting[0]] < dims[nesting[0]]; ++point[nesting[0]])
        tasks.push_back(job.task_at(point));
  return tasks;
}

std::vector<int> ranks_in_order(const Allocation& allocation, const LinearOrder& order) {
  std::vector<int> ranks(allocation.rank_count());
  std::iota(ranks.begin(), ranks.end(), 0);
  auto key = [&](int rank, int level) {
    const int axis = order.nesting[level];
    const int coord = allocation.rank_coord[rank][axis];
    return order.reversed[axis] ? -coord : coord;
  };
  std::stable_sort(ranks.begin(), ranks.end(), [&](int a, int b) {
    for (int level = 2; level >= 0; --level) {
      const int ka = key(a, level), kb = key(b, level);
      if (ka != kb) return ka < kb;
    }
    return false;
  });
  return ranks;
}

}  // namespace stencil
}  // namespace tofa
