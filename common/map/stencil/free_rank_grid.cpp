#include "free_rank_grid.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace tofa {
namespace stencil {

FreeRankGrid::FreeRankGrid(const Allocation& allocation)
    : low_(allocation.low), size_(allocation.extent()) {
  const int cells = size_[0] * size_[1] * size_[2];
  std::vector<int> cell(allocation.rank_count());
  cell_start_.assign(cells + 1, 0);
  for (int rank = 0; rank < allocation.rank_count(); ++rank) {
    const Triple& c = allocation.rank_coord[rank];
    cell[rank] = cell_of(c[0] - low_[0], c[1] - low_[1], c[2] - low_[2]);
    ++cell_start_[cell[rank] + 1];
  }
  for (int c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  cell_next_.assign(cell_start_.begin(), cell_start_.end() - 1);
  ranks_.resize(allocation.rank_count());
  std::vector<int> fill = cell_next_;
  for (int rank = 0; rank < allocation.rank_count(); ++rank) ranks_[fill[cell[rank]]++] = rank;
  row_free_.assign(size_[1] * size_[2], 0);
  for (int rank = 0; rank < allocation.rank_count(); ++rank) ++row_free_[cell[rank] / size_[0]];
  free_ = allocation.rank_count();
}

int FreeRankGrid::take_nearest(const Triple& target) {
  if (free_ == 0) throw std::logic_error("no free rank left");
  Triple t;  // target relative to the box
  int beyond = 0;  // distance from the target to the box
  for (int axis = 0; axis < 3; ++axis) {
    t[axis] = target[axis] - low_[axis];
    if (t[axis] < 0) beyond -= t[axis];
    if (t[axis] >= size_[axis]) beyond += t[axis] - size_[axis] + 1;
  }
  const int farthest = beyond + 2 * (size_[0] + size_[1] + size_[2]);
  for (int d = beyond; d <= farthest; ++d) {
    for (int z = std::max(0, t[2] - d); z <= std::min(size_[2] - 1, t[2] + d); ++z) {
      const int rest_z = d - std::abs(z - t[2]);
      for (int y = std::max(0, t[1] - rest_z); y <= std::min(size_[1] - 1, t[1] + rest_z); ++y) {
        if (row_free_[y + size_[1] * z] == 0) continue;
        const int rest_y = rest_z - std::abs(y - t[1]);
        const int xs[2] = {t[0] - rest_y, t[0] + rest_y};
        for (int k = 0; k < (rest_y == 0 ? 1 : 2); ++k) {
          const int x = xs[k];
          if (x < 0 || x >= size_[0]) continue;
          const int c = cell_of(x, y, z);
          if (cell_next_[c] == cell_start_[c + 1]) continue;
          --row_free_[y + size_[1] * z];
          --free_;
          return ranks_[cell_next_[c]++];
        }
      }
    }
  }
  throw std::logic_error("free rank not found");
}

}  // namespace stencil
}  // namespace tofa
