// Rubik partition trees: construction, children, leaves and map (seed
// Bhatele et al., section III-A and III-C).
#include <deque>
#include <numeric>

#include "base/error.hpp"
#include "grid.hpp"
#include "map/rubik/rubik.hpp"

namespace tofa {
namespace rubik {

Box::Box(Tree* tree, std::vector<int> shape, std::vector<std::int64_t> cells)
    : tree_(tree), shape_(std::move(shape)), cells_(std::move(cells)) {}

std::vector<std::int64_t> Box::elements() const {
  std::vector<std::int64_t> result;
  result.reserve(cells_.size());
  for (std::int64_t cell : cells_) result.push_back(tree_->elements_[cell]);
  return result;
}

Box& Box::child(std::size_t index) {
  if (index >= children_.size()) {
    throw Error("child " + std::to_string(index) + " does not exist: the box has " +
                std::to_string(children_.size()) + " children");
  }
  return *children_[index];
}

const Box& Box::child(std::size_t index) const { return const_cast<Box*>(this)->child(index); }

Box& Box::child(const std::vector<int>& index) {
  if (index.size() != child_grid_.size()) {
    throw Error("child index has " + std::to_string(index.size()) + " values, expected " +
                std::to_string(child_grid_.size()) + " (children form a " +
                shape_text(child_grid_) + " grid)");
  }
  for (std::size_t d = 0; d < index.size(); ++d) {
    if (index[d] < 0 || index[d] >= child_grid_[d]) {
      throw Error("child index " + std::to_string(index[d]) + " in dimension " +
                  std::to_string(d) + " is outside 0.." + std::to_string(child_grid_[d] - 1));
    }
  }
  return *children_[row_major_index(child_grid_, index)];
}

void Box::check_leaf(const char* operation) const {
  if (!is_leaf()) {
    throw Error(std::string(operation) + ": the box is already divided into " +
                std::to_string(children_.size()) + " children");
  }
}

void Box::permute(const std::vector<std::int64_t>& source_of) {
  std::vector<std::int64_t>& elements = tree_->elements_;
  std::vector<std::int64_t> moved(cells_.size());
  for (std::size_t p = 0; p < cells_.size(); ++p) moved[p] = elements[cells_[source_of[p]]];
  for (std::size_t p = 0; p < cells_.size(); ++p) elements[cells_[p]] = moved[p];
}

Tree::Tree(std::vector<int> shape) {
  if (shape.empty()) throw Error("box: expected at least one dimension");
  for (int extent : shape) {
    if (extent < 1) throw Error("box: every dimension needs a size of at least 1, got " + std::to_string(extent));
  }
  std::int64_t size = 1;
  for (int extent : shape) {
    if (size > kMaxCells / extent)
      throw Error("box: more than " + std::to_string(kMaxCells) + " cells");
    size *= extent;
  }
  stored_cells_ = size;
  std::vector<std::int64_t> cells(size);
  std::iota(cells.begin(), cells.end(), 0);
  elements_ = cells;
  root_.reset(new Box(this, std::move(shape), std::move(cells)));
}

std::vector<int> Tree::coordinates(std::int64_t cell) const {
  return row_major_coordinates(shape(), cell);
}

std::vector<const Box*> Tree::leaves() const {
  std::vector<const Box*> result;
  std::deque<const Box*> queue{root_.get()};
  while (!queue.empty()) {
    const Box* box = queue.front();
    queue.pop_front();
    if (box->is_leaf()) result.push_back(box);
    for (const auto& child : box->children_) queue.push_back(child.get());
  }
  return result;
}

namespace {

/// Empty when compatible, else the first difference.
std::string incompatibility(const Tree& target, const Tree& source) {
  const std::vector<const Box*> ours = target.leaves(), theirs = source.leaves();
  if (ours.size() != theirs.size()) {
    return std::to_string(ours.size()) + " leaves here, " + std::to_string(theirs.size()) +
           " in the source";
  }
  for (std::size_t i = 0; i < ours.size(); ++i) {
    if (ours[i]->size() != theirs[i]->size()) {
      return "leaf " + std::to_string(i) + " has " + std::to_string(ours[i]->size()) +
             " cells here, " + std::to_string(theirs[i]->size()) + " in the source";
    }
  }
  return "";
}

}  // namespace

bool Tree::compatible(const Tree& other) const { return incompatibility(*this, other).empty(); }

void Tree::map(const Tree& source) {
  const std::string problem = incompatibility(*this, source);
  if (!problem.empty()) throw Error("map: the trees are not compatible: " + problem);
  const std::vector<std::int64_t> copied = source.elements_;  // source may be this tree
  const std::vector<const Box*> ours = leaves(), theirs = source.leaves();
  for (std::size_t i = 0; i < ours.size(); ++i)
    for (std::size_t p = 0; p < ours[i]->cells_.size(); ++p)
      elements_[ours[i]->cells_[p]] = copied[theirs[i]->cells_[p]];
}

std::vector<std::int64_t> Tree::cell_of_element() const {
  std::vector<std::int64_t> cell_of(elements_.size(), -1);
  for (std::size_t cell = 0; cell < elements_.size(); ++cell) {
    const std::int64_t element = elements_[cell];
    if (element < 0 || element >= static_cast<std::int64_t>(elements_.size()) || cell_of[element] >= 0) {
      throw Error("the box does not hold each rank 0.." + std::to_string(elements_.size() - 1) +
                  " exactly once (rank " + std::to_string(element) + " at cell " +
                  std::to_string(cell) + ")");
    }
    cell_of[element] = static_cast<std::int64_t>(cell);
  }
  return cell_of;
}

}  // namespace rubik
}  // namespace tofa
