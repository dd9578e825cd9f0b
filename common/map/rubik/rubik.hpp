// Rubik (seed Bhatele et al.): partition trees of nD boxes, the operations
// that divide and permute them, a text spec format, and the files that hand
// a layout to MPI launchers.
//
// Conventions: a box of shape D0 x D1 x ... holds one element per cell,
// numbered in row-major (scan-line) order, the LAST dimension varying fastest
// (as the seed's numpy boxes do). A new tree's elements are its ranks
// 0..size-1. Mapping copies the elements (ranks) of one tree into another.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "base/size_limit.hpp"
#include "map/mapper.hpp"
#include "topology/topology.hpp"

namespace tofa {
namespace rubik {

/// How `cut` slices one dimension: contiguous blocks, or interleaved cells.
enum class Slicing { Div, Mod };

class Tree;

/// One node of a partition tree: an nD block of its tree's cells. Children
/// are disjoint and together cover their parent. Operations throw Error with
/// the operation's name and what was wrong.
class Box {
 public:
  Box(const Box&) = delete;
  Box& operator=(const Box&) = delete;

  const std::vector<int>& shape() const { return shape_; }
  std::int64_t size() const { return static_cast<std::int64_t>(cells_.size()); }
  /// The tree cell (row-major index in the root box) of each position of this
  /// box, in this box's row-major order.
  const std::vector<std::int64_t>& cells() const { return cells_; }
  /// The elements at this box's positions, in its row-major order.
  std::vector<std::int64_t> elements() const;

  bool is_leaf() const { return children_.empty(); }
  /// Shape of the grid of children (the divisors of the partition); empty for a leaf.
  const std::vector<int>& child_grid() const { return child_grid_; }
  std::size_t child_count() const { return children_.size(); }
  /// Child by row-major position in child_grid(). Throws Error when out of range.
  Box& child(std::size_t index);
  const Box& child(std::size_t index) const;
  /// Child by its index in child_grid() (one value per grid dimension).
  Box& child(const std::vector<int>& index);

  /// Partitioning (only on a leaf). div: divisors[d] contiguous slices along
  /// dimension d; the cell at x is in child x[d] / (D[d]/divisors[d]).
  /// Every D[d] must be a multiple of divisors[d].
  void div(const std::vector<int>& divisors);
  /// div into children of shape tile_shape (divisors D[d] / tile_shape[d]).
  void tile(const std::vector<int>& tile_shape);
  /// Interleaved: the cell at x is in child x[d] mod divisors[d].
  void mod(const std::vector<int>& divisors);
  /// div or mod chosen per dimension.
  void cut(const std::vector<int>& divisors, const std::vector<Slicing>& slicing);

  /// Permutations of this box's elements (any box of the tree; the children
  /// keep their cells, so they see the permuted elements).
  /// tilt: the hyperplane at index i along plane_dim is rotated circularly by
  /// i * step cells along shift_dim (an element at x moves to x + i*step).
  void tilt(int plane_dim, int shift_dim, int step);
  /// zigzag: like tilt, but the hyperplanes at odd i move by `amount` and
  /// the even ones stay.
  void zigzag(int plane_dim, int shift_dim, int amount);
  /// The elements, taken in row-major order, are laid along the Z-order
  /// (Morton) curve of the box: the j-th goes to the cell with the j-th
  /// smallest Z code (coordinate bits interleaved, dimension 0 most
  /// significant within a bit level; sizes need not be powers of two).
  void zorder();

 private:
  friend class Tree;
  Box(Tree* tree, std::vector<int> shape, std::vector<std::int64_t> cells);
  void check_leaf(const char* operation) const;
  /// New position p gets the element at old position source_of[p].
  void permute(const std::vector<std::int64_t>& source_of);

  Tree* tree_;
  std::vector<int> shape_;
  std::vector<std::int64_t> cells_;
  std::vector<int> child_grid_;
  std::vector<std::unique_ptr<Box>> children_;
};

/// The most cells the boxes of one tree may hold together (the root and
/// every division of it), and of all the trees of a spec: 16 Mi ranks, far
/// above a job's, and 128 MB of cell indices. Checked before allocating.
constexpr std::int64_t kMaxCells = size_limit(std::int64_t{1} << 24, std::int64_t{1} << 12);

/// A partition tree: a root box, its descendants, and the element in every cell.
class Tree {
 public:
  /// A box of the given shape holding ranks 0..size-1 in row-major order.
  /// Throws Error on an empty shape, a size < 1 or more than kMaxCells cells.
  explicit Tree(std::vector<int> shape);
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;

  Box& root() { return *root_; }
  const Box& root() const { return *root_; }
  const std::vector<int>& shape() const { return root_->shape(); }
  std::int64_t size() const { return root_->size(); }
  /// The element of each cell (row-major index in the root box).
  const std::vector<std::int64_t>& elements() const { return elements_; }
  std::vector<int> coordinates(std::int64_t cell) const;

  /// Leaves in breadth-first order (children in row-major grid order).
  std::vector<const Box*> leaves() const;
  /// Same number of leaves, pairwise of the same size (breadth-first order).
  bool compatible(const Tree& other) const;
  /// The seed's map: the i-th leaf of this tree receives the elements of the
  /// i-th leaf of `source`, both taken in row-major order. Throws Error
  /// naming the first difference when the trees are not compatible.
  void map(const Tree& source);
  /// cell_of[e] = the cell holding element e. Throws Error unless the
  /// elements are 0..size-1, each once.
  std::vector<std::int64_t> cell_of_element() const;
  /// Cells held by all boxes of the tree: the root's and every division's.
  std::int64_t stored_cells() const { return stored_cells_; }

 private:
  friend class Box;
  std::unique_ptr<Box> root_;
  std::vector<std::int64_t> elements_;
  std::int64_t stored_cells_ = 0;
};

/// The trees a spec file builds and the one to write out.
struct Spec {
  std::vector<std::string> names;             ///< in order of definition
  std::vector<std::unique_ptr<Tree>> trees;   ///< trees[i] is names[i]
  /// The tree to write: the last one named by write_map_file, else the last
  /// target of map, else the last tree defined.
  std::string output;
  const Tree& output_tree() const;
  const Tree* find(const std::string& name) const;
};

/// Runs a spec (format: examples/rubik/README.md): one statement per line, '#'
/// comments, e.g.
///   Z, Y, X = 0, 1, 2
///   app = box([9, 3, 8])
///   app.tile([9, 3, 1])
///   net = box([6, 6, 6])
///   net.tile([3, 3, 3])
///   net.map(app)
///   net[0].tilt(Z, X, 1)
///   for c in net: c.zorder()
/// Throws ParseError "SOURCE:LINE:COLUMN: message" on bad syntax and on an
/// operation that fails (the column of the operation's name).
Spec parse_spec(std::istream& in, const std::string& source_name);
/// Reads and runs a spec file; Error when it cannot be read.
Spec read_spec(const std::string& path);

/// Rank -> node for a network tree on a topology with D dimensions. The
/// tree has D dimensions (one rank per node) or D + 1, the last one the core
/// within a node (its size at most `slots`); dimension d covers coordinates
/// 0..shape[d]-1 of topology dimension d. Throws Error otherwise.
Placement placement_on(const Tree& network, const Topology& topology, int slots);

/// Rubik's map file: line r holds the coordinates of rank r, space-separated.
void write_map_file(std::ostream& out, const Tree& network);
/// Cray MPICH_RANK_ORDER: the ranks in the order the launcher fills slots
/// (node by node, cores of a node consecutive), comma-separated, runs
/// written as ranges "a-b". Without a topology the order is the box's
/// row-major order (last dimension, the cores, fastest); with one, nodes in
/// id order and, within a node, the core coordinate.
void write_mpich_rank_order(std::ostream& out, const Tree& network);
void write_mpich_rank_order(std::ostream& out, const Tree& network, const Topology& topology,
                            int slots);
/// SLURM_HOSTFILE: line i is the name of the node of task i.
void write_hostfile(std::ostream& out, const Placement& placement, const Topology& topology);

}  // namespace rubik
}  // namespace tofa
