// Rubik's partitioning operations: div, tile, mod and cut (seed Bhatele et
// al., section III-B). All four are cut with a slicing per dimension.
#include "base/error.hpp"
#include "grid.hpp"
#include "map/rubik/rubik.hpp"

namespace tofa {
namespace rubik {
namespace {

void check_arity(const char* operation, const char* what, std::size_t given,
                 const std::vector<int>& shape) {
  if (given != shape.size()) {
    throw Error(std::string(operation) + ": expected " + std::to_string(shape.size()) + " " +
                what + " (one per dimension of the " + shape_text(shape) + " box), got " +
                std::to_string(given));
  }
}

void check_divisors(const char* operation, const std::vector<int>& divisors,
                    const std::vector<int>& shape) {
  check_arity(operation, "divisors", divisors.size(), shape);
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (divisors[d] < 1) {
      throw Error(std::string(operation) + ": divisor " + std::to_string(divisors[d]) +
                  " in dimension " + std::to_string(d) + " must be at least 1");
    }
    if (shape[d] % divisors[d] != 0) {
      throw Error(std::string(operation) + ": dimension " + std::to_string(d) + " of size " +
                  std::to_string(shape[d]) + " is not divisible by " +
                  std::to_string(divisors[d]));
    }
  }
}

}  // namespace

void Box::div(const std::vector<int>& divisors) {
  check_leaf("div");
  check_divisors("div", divisors, shape_);
  cut(divisors, std::vector<Slicing>(divisors.size(), Slicing::Div));
}

void Box::mod(const std::vector<int>& divisors) {
  check_leaf("mod");
  check_divisors("mod", divisors, shape_);
  cut(divisors, std::vector<Slicing>(divisors.size(), Slicing::Mod));
}

void Box::tile(const std::vector<int>& tile_shape) {
  check_leaf("tile");
  check_arity("tile", "tile sizes", tile_shape.size(), shape_);
  std::vector<int> divisors(shape_.size());
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    if (tile_shape[d] < 1 || shape_[d] % tile_shape[d] != 0) {
      throw Error("tile: dimension " + std::to_string(d) + " of size " +
                  std::to_string(shape_[d]) + " is not a multiple of the tile size " +
                  std::to_string(tile_shape[d]));
    }
    divisors[d] = shape_[d] / tile_shape[d];
  }
  cut(divisors, std::vector<Slicing>(divisors.size(), Slicing::Div));
}

void Box::cut(const std::vector<int>& divisors, const std::vector<Slicing>& slicing) {
  check_leaf("cut");
  check_divisors("cut", divisors, shape_);
  check_arity("cut", "slicings", slicing.size(), shape_);
  std::vector<int> extent(shape_.size());
  for (std::size_t d = 0; d < shape_.size(); ++d) extent[d] = shape_[d] / divisors[d];
  // The children copy this box's cells: a chain of divisions (even by 1)
  // would otherwise grow without bound.
  if (tree_->stored_cells_ > kMaxCells - size())
    throw Error("the tree's boxes would hold more than " + std::to_string(kMaxCells) +
                " cells");
  tree_->stored_cells_ += size();

  std::vector<std::unique_ptr<Box>> children;
  std::vector<int> grid_at(shape_.size(), 0), parent_at(shape_.size());
  do {
    std::vector<std::int64_t> cells;
    cells.reserve(volume(extent));
    std::vector<int> local(shape_.size(), 0);
    do {
      for (std::size_t d = 0; d < shape_.size(); ++d) {
        parent_at[d] = slicing[d] == Slicing::Div ? grid_at[d] * extent[d] + local[d]
                                                  : grid_at[d] + local[d] * divisors[d];
      }
      cells.push_back(cells_[row_major_index(shape_, parent_at)]);
    } while (next_cell(extent, local));
    children.emplace_back(new Box(tree_, extent, std::move(cells)));
  } while (next_cell(divisors, grid_at));
  child_grid_ = divisors;
  children_ = std::move(children);
}

}  // namespace rubik
}  // namespace tofa
