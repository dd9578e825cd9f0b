// Nearest free rank to a point: the search behind OVERLAY and TWOWAYOVERLAY.
#pragma once

#include <vector>

#include "allocation.hpp"

namespace tofa {
namespace stencil {

/// The allocation's ranks bucketed by unwrapped coordinate, with the ones
/// already taken removed.
class FreeRankGrid {
 public:
  explicit FreeRankGrid(const Allocation& allocation);

  /// Removes and returns the free rank nearest to `target` in L1 distance over
  /// unwrapped coordinates (`target` may lie outside the bounding box). Ties go
  /// to the smaller z, then y, then x, then the lower rank id. Searches shells
  /// of growing radius: O(r^3) for a nearest free rank at distance r.
  /// Throws std::logic_error when no rank is free.
  int take_nearest(const Triple& target);

 private:
  int cell_of(int x, int y, int z) const { return x + size_[0] * (y + size_[1] * z); }

  Triple low_;
  Triple size_;
  std::vector<int> cell_start_;  ///< ranks of cell c: ranks_[cell_start_[c] .. cell_start_[c+1])
  std::vector<int> cell_next_;   ///< first free entry of each cell
  std::vector<int> ranks_;
  std::vector<int> row_free_;    ///< free ranks per (y, z) row, to skip empty rows
  int free_ = 0;
};

}  // namespace stencil
}  // namespace tofa
