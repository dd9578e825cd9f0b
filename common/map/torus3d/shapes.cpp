#include "shapes.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace tofa {
namespace torus3d {
namespace {

std::string triple_text(const Triple& t) {
  return std::to_string(t[0]) + "x" + std::to_string(t[1]) + "x" + std::to_string(t[2]);
}

constexpr const char* kSyntax = "expected AxBxC[/SXxSYxSZ][@XxYxZ] (dims, anchor spacing, anchor seed)";

/// "AxBxC" with exactly three non-negative integers; false on anything else.
bool parse_triple(const std::string& text, Triple* out) {
  std::size_t at = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (axis > 0) {
      if (at >= text.size() || text[at] != 'x') return false;
      ++at;
    }
    const std::size_t begin = at;
    long long value = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      value = value * 10 + (text[at] - '0');
      if (value > (1 << 24)) return false;
      ++at;
    }
    if (at == begin) return false;
    (*out)[axis] = static_cast<int>(value);
  }
  return at == text.size();
}

Shape parse_one(const std::string& text, const Grid& grid) {
  const std::string where = "torus3d: shape '" + text + "'";
  const std::size_t slash = text.find('/');
  const std::size_t at_sign = text.find('@');
  if (at_sign != std::string::npos && slash != std::string::npos && slash > at_sign)
    throw Error(where + ": " + kSyntax);
  const std::size_t dims_end = std::min(slash, at_sign);
  Shape shape;
  if (!parse_triple(text.substr(0, dims_end), &shape.dims)) throw Error(where + ": " + kSyntax);
  shape.spacing = shape.dims;
  if (slash != std::string::npos &&
      !parse_triple(text.substr(slash + 1, at_sign == std::string::npos ? std::string::npos
                                                                        : at_sign - slash - 1),
                    &shape.spacing))
    throw Error(where + ": " + kSyntax);
  if (at_sign != std::string::npos && !parse_triple(text.substr(at_sign + 1), &shape.seed))
    throw Error(where + ": " + kSyntax);

  // The checks of torus3d_record.c:_validate_placement and _build_placement_anchors.
  for (int axis = 0; axis < 3; ++axis) {
    if (shape.dims[axis] < 1 || shape.dims[axis] > grid.dims[axis])
      throw Error(where + ": each dimension must be from 1 to the topology's (" + grid.text() + ")");
    if (shape.spacing[axis] < 1 || shape.spacing[axis] > grid.dims[axis])
      throw Error(where + ": anchor spacing must be from 1 to the topology's dimension on each axis (" +
                  grid.text() + ")");
    if (shape.seed[axis] >= grid.dims[axis])
      throw Error(where + ": anchor seed must be below the topology's dimension on each axis (" +
                  grid.text() + ")");
  }
  return shape;
}

}  // namespace

std::string Grid::text() const { return triple_text(dims); }

Grid grid_of(const Topology& topology) {
  if (topology.dimension_count() > 3) {
    throw Error("torus3d: the topology has " + std::to_string(topology.dimension_count()) +
                " dimensions; torus3d places jobs on tori of at most 3");
  }
  Grid grid;
  for (int d = 0; d < topology.dimension_count(); ++d) {
    grid.dims[d] = topology.dims()[d];
    grid.wrap[d] = topology.wrap()[d];
  }
  return grid;
}

std::string Shape::text() const {
  std::string out = triple_text(dims);
  if (spacing != dims) out += "/" + triple_text(spacing);
  if (seed != Triple{0, 0, 0}) out += "@" + triple_text(seed);
  return out;
}

std::vector<Shape> parse_shapes(const std::string& text, const Grid& grid) {
  std::vector<Shape> shapes;
  std::size_t begin = 0;
  while (true) {
    const std::size_t comma = text.find(',', begin);
    const std::string item = text.substr(begin, comma == std::string::npos ? comma : comma - begin);
    if (item.empty()) throw Error("torus3d: empty shape in shapes='" + text + "': " + kSyntax);
    shapes.push_back(parse_one(item, grid));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return shapes;
}

std::vector<Shape> default_shapes(const Grid& grid) {
  std::vector<Shape> shapes;
  for (const Triple& dims : {Triple{2, 2, 1}, Triple{2, 2, 2}, Triple{4, 4, 2}}) {
    bool fits = true;
    for (int axis = 0; axis < 3; ++axis) fits = fits && dims[axis] <= grid.dims[axis];
    if (fits) shapes.push_back(Shape{dims, dims, {0, 0, 0}});
  }
  return shapes;
}

std::vector<Shape> order_by_size(std::vector<Shape> shapes) {
  std::stable_sort(shapes.begin(), shapes.end(),
                   [](const Shape& a, const Shape& b) { return a.size() < b.size(); });
  return shapes;
}

std::vector<int> anchor_positions(int length, int spacing, int seed) {
  std::vector<int> positions{seed};
  for (int at = (seed + spacing) % length; at != seed; at = (at + spacing) % length)
    positions.push_back(at);
  return positions;
}

}  // namespace torus3d
}  // namespace tofa
