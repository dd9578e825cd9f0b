#include "corner_order.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace tofa {
namespace stencil {
namespace {

/// (L1 distance, dz, dy, dx) of `point` from corner `corner` of [low, high].
std::tuple<int, int, int, int> corner_key(const Triple& point, const Triple& low,
                                          const Triple& high, int corner) {
  Triple offset;
  for (int axis = 0; axis < 3; ++axis)
    offset[axis] = (corner >> axis) & 1 ? high[axis] - point[axis] : point[axis] - low[axis];
  return {offset[0] + offset[1] + offset[2], offset[2], offset[1], offset[0]};
}

}  // namespace

std::vector<int> tasks_from_corner(const JobGrid& job, int corner) {
  const Triple low{0, 0, 0};
  const Triple high{job.dims()[0] - 1, job.dims()[1] - 1, job.dims()[2] - 1};
  std::vector<std::pair<std::tuple<int, int, int, int>, int>> keyed;
  keyed.reserve(job.task_count());
  Triple p;
  for (p[2] = 0; p[2] <= high[2]; ++p[2])
    for (p[1] = 0; p[1] <= high[1]; ++p[1])
      for (p[0] = 0; p[0] <= high[0]; ++p[0])
        keyed.push_back({corner_key(p, low, high, corner), job.task_at(p)});
  std::sort(keyed.begin(), keyed.end());  // keys are distinct points
  std::vector<int> tasks;
  tasks.reserve(keyed.size());
  for (const auto& entry : keyed) tasks.push_back(entry.second);
  return tasks;
}

std::vector<int> ranks_from_corner(const Allocation& allocation, int corner) {
  std::vector<std::pair<std::tuple<int, int, int, int>, int>> keyed;
  keyed.reserve(allocation.rank_count());
  for (int rank = 0; rank < allocation.rank_count(); ++rank)
    keyed.push_back(
        {corner_key(allocation.rank_coord[rank], allocation.low, allocation.high, corner), rank});
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> ranks;
  ranks.reserve(keyed.size());
  for (const auto& entry : keyed) ranks.push_back(entry.second);
  return ranks;
}

}  // namespace stencil
}  // namespace tofa
