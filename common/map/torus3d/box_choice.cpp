#include "box_choice.hpp"

#include <cstdint>

namespace tofa {
namespace torus3d {
namespace {

int modulo(int value, int length) { return ((value % length) + length) % length; }

/// Free nodes in any box in O(1): prefix sums over the grid, a wrapping box
/// split into at most two intervals per axis.
class FreeCount {
 public:
  FreeCount(const Grid& grid, const std::vector<char>& free)
      : grid_(grid), sums_(static_cast<std::size_t>(grid.dims[0] + 1) * (grid.dims[1] + 1) *
                           (grid.dims[2] + 1)) {
    for (int z = 1; z <= grid.dims[2]; ++z)
      for (int y = 1; y <= grid.dims[1]; ++y)
        for (int x = 1; x <= grid.dims[0]; ++x) {
          const int cell = free[grid.node_at({x - 1, y - 1, z - 1})] ? 1 : 0;
          at(x, y, z) = cell + at(x - 1, y, z) + at(x, y - 1, z) + at(x, y, z - 1) -
                        at(x - 1, y - 1, z) - at(x - 1, y, z - 1) - at(x, y - 1, z - 1) +
                        at(x - 1, y - 1, z - 1);
        }
  }

  std::int64_t in_box(const Box& box) const {
    // Per axis, the box's cells as one or two half-open intervals.
    int from[3][2], to[3][2], parts[3];
    for (int axis = 0; axis < 3; ++axis) {
      const int end = box.corner[axis] + box.dims[axis];
      const int length = grid_.dims[axis];
      from[axis][0] = box.corner[axis];
      to[axis][0] = end < length ? end : length;
      parts[axis] = 1;
      if (end > length) {
        from[axis][1] = 0;
        to[axis][1] = end - length;
        parts[axis] = 2;
      }
    }
    std::int64_t total = 0;
    for (int i = 0; i < parts[0]; ++i)
      for (int j = 0; j < parts[1]; ++j)
        for (int k = 0; k < parts[2]; ++k)
          total += block(from[0][i], to[0][i], from[1][j], to[1][j], from[2][k], to[2][k]);
    return total;
  }

 private:
  std::int32_t& at(int x, int y, int z) { return sums_[index(x, y, z)]; }
  std::int32_t get(int x, int y, int z) const { return sums_[index(x, y, z)]; }
  std::size_t index(int x, int y, int z) const {
    return (static_cast<std::size_t>(z) * (grid_.dims[1] + 1) + y) * (grid_.dims[0] + 1) + x;
  }
  std::int64_t block(int x0, int x1, int y0, int y1, int z0, int z1) const {
    return std::int64_t{get(x1, y1, z1)} - get(x0, y1, z1) - get(x1, y0, z1) - get(x1, y1, z0) +
           get(x0, y0, z1) + get(x0, y1, z0) + get(x1, y0, z0) - get(x0, y0, z0);
  }

  Grid grid_;
  std::vector<std::int32_t> sums_;
};

/// False when the box crosses the edge of a mesh axis: those cells are not
/// neighbours, as a torus3d anchor box with cells missing is no placement.
bool within_edges(const Grid& grid, const Box& box) {
  for (int axis = 0; axis < 3; ++axis)
    if (!grid.wrap[axis] && box.corner[axis] + box.dims[axis] > grid.dims[axis]) return false;
  return true;
}

bool entirely_free(const Grid& grid, const FreeCount& count, const Box& box) {
  return within_edges(grid, box) &&
         count.in_box(box) ==
             static_cast<std::int64_t>(box.dims[0]) * box.dims[1] * box.dims[2];
}

bool arcs_overlap(int a, int a_length, int b, int b_length, int axis_length) {
  return modulo(b - a, axis_length) < a_length || modulo(a - b, axis_length) < b_length;
}

struct AnchorGrid {
  std::vector<int> positions[3];
};

AnchorGrid anchors_of(const Grid& grid, const Shape& shape) {
  AnchorGrid anchors;
  for (int axis = 0; axis < 3; ++axis)
    anchors.positions[axis] =
        anchor_positions(grid.dims[axis], shape.spacing[axis], shape.seed[axis]);
  return anchors;
}

/// eval_nodes_torus3d.c:_get_frag_cost: how many entirely free boxes of the
/// next larger shape overlap `box`.
int fragmentation(const Grid& grid, const FreeCount& count, const Box& box, const Shape& next,
                  const AnchorGrid& next_anchors) {
  std::vector<int> overlapping[3];
  for (int axis = 0; axis < 3; ++axis)
    for (int at : next_anchors.positions[axis])
      if (arcs_overlap(box.corner[axis], box.dims[axis], at, next.dims[axis], grid.dims[axis]))
        overlapping[axis].push_back(at);
  int broken = 0;
  for (int x : overlapping[0])
    for (int y : overlapping[1])
      for (int z : overlapping[2])
        if (entirely_free(grid, count, Box{{x, y, z}, next.dims})) ++broken;
  return broken;
}

}  // namespace

std::vector<int> box_nodes(const Grid& grid, const Box& box) {
  std::vector<int> nodes;
  nodes.reserve(static_cast<std::size_t>(box.dims[0]) * box.dims[1] * box.dims[2]);
  for (int dz = 0; dz < box.dims[2]; ++dz)
    for (int dy = 0; dy < box.dims[1]; ++dy)
      for (int dx = 0; dx < box.dims[0]; ++dx)
        nodes.push_back(grid.node_at({(box.corner[0] + dx) % grid.dims[0],
                                      (box.corner[1] + dy) % grid.dims[1],
                                      (box.corner[2] + dz) % grid.dims[2]}));
  return nodes;
}

BoxChoice choose_box(const Grid& grid, const std::vector<Shape>& shapes, long long nodes,
                     const std::vector<char>& free) {
  const FreeCount count(grid, free);
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    if (shapes[s].size() != nodes) continue;
    const AnchorGrid anchors = anchors_of(grid, shapes[s]);
    std::vector<Box> free_boxes;
    for (int x : anchors.positions[0])
      for (int y : anchors.positions[1])
        for (int z : anchors.positions[2]) {
          const Box box{{x, y, z}, shapes[s].dims};
          if (entirely_free(grid, count, box)) free_boxes.push_back(box);
        }
    if (free_boxes.empty()) continue;

    // All nodes weigh the same here, so a shape's first free box is only
    // beaten by one of the same shape that breaks fewer larger free boxes
    // (eval_nodes_torus3d.c:_is_better_candidate).
    BoxChoice choice{true, static_cast<int>(s), free_boxes.front()};
    std::size_t next = s + 1;
    while (next < shapes.size() && shapes[next].size() <= nodes) ++next;
    if (free_boxes.size() > 1 && next < shapes.size()) {
      const AnchorGrid next_anchors = anchors_of(grid, shapes[next]);
      int least = -1;
      for (const Box& box : free_boxes) {
        const int broken = fragmentation(grid, count, box, shapes[next], next_anchors);
        if (least < 0 || broken < least) {
          least = broken;
          choice.box = box;
        }
      }
    }
    return choice;
  }
  return BoxChoice{};
}

}  // namespace torus3d
}  // namespace tofa
