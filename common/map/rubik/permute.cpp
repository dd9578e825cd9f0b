// Rubik's permuting operations: tilt, zigzag and zorder (seed Bhatele et al.,
// section III-D). Each builds source_of[new position] = old position and
// lets Box::permute move the elements, so every one is a permutation.
#include <algorithm>
#include <numeric>

#include "base/error.hpp"
#include "grid.hpp"
#include "map/rubik/rubik.hpp"

namespace tofa {
namespace rubik {
namespace {

void check_dimensions(const char* operation, int plane_dim, int shift_dim,
                      const std::vector<int>& shape) {
  const int count = static_cast<int>(shape.size());
  for (int dim : {plane_dim, shift_dim}) {
    if (dim < 0 || dim >= count) {
      throw Error(std::string(operation) + ": dimension " + std::to_string(dim) +
                  " is outside 0.." + std::to_string(count - 1) + " of the " +
                  shape_text(shape) + " box");
    }
  }
  if (plane_dim == shift_dim) {
    throw Error(std::string(operation) + ": the hyperplanes and the shift need two different "
                "dimensions, got " + std::to_string(plane_dim) + " twice");
  }
}

int wrap(std::int64_t value, int extent) {
  const std::int64_t r = value % extent;
  return static_cast<int>(r < 0 ? r + extent : r);
}

/// Rotates hyperplane i (along plane_dim) by shift_of(i) cells along shift_dim.
template <typename ShiftOf>
std::vector<std::int64_t> plane_shifts(const std::vector<int>& shape, int plane_dim,
                                       int shift_dim, ShiftOf shift_of) {
  std::vector<std::int64_t> source_of(volume(shape));
  std::vector<int> at(shape.size(), 0);
  std::int64_t position = 0;
  do {
    std::vector<int> from = at;
    from[shift_dim] = wrap(at[shift_dim] - shift_of(at[plane_dim]), shape[shift_dim]);
    source_of[position++] = row_major_index(shape, from);
  } while (next_cell(shape, at));
  return source_of;
}

}  // namespace

void Box::tilt(int plane_dim, int shift_dim, int step) {
  check_dimensions("tilt", plane_dim, shift_dim, shape_);
  permute(plane_shifts(shape_, plane_dim, shift_dim,
                       [step](int plane) { return static_cast<std::int64_t>(plane) * step; }));
}

void Box::zigzag(int plane_dim, int shift_dim, int amount) {
  check_dimensions("zigzag", plane_dim, shift_dim, shape_);
  permute(plane_shifts(shape_, plane_dim, shift_dim,
                       [amount](int plane) { return plane % 2 ? amount : 0; }));
}

void Box::zorder() {
  std::vector<int> bits(shape_.size(), 0);
  int total_bits = 0, widest = 0;
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    while ((1LL << bits[d]) < shape_[d]) ++bits[d];
    total_bits += bits[d];
    widest = std::max(widest, bits[d]);
  }
  if (total_bits > 62) throw Error("zorder: the " + shape_text(shape_) + " box needs more than 62 code bits");

  std::vector<std::uint64_t> code(cells_.size());
  std::vector<int> at(shape_.size(), 0);
  std::size_t position = 0;
  do {
    std::uint64_t z = 0;
    for (int bit = widest - 1; bit >= 0; --bit)
      for (std::size_t d = 0; d < shape_.size(); ++d)
        if (bit < bits[d]) z = (z << 1) | ((static_cast<std::uint64_t>(at[d]) >> bit) & 1u);
    code[position++] = z;
  } while (next_cell(shape_, at));

  std::vector<std::int64_t> by_code(cells_.size());
  std::iota(by_code.begin(), by_code.end(), 0);
  std::sort(by_code.begin(), by_code.end(),
            [&](std::int64_t a, std::int64_t b) { return code[a] < code[b]; });
  std::vector<std::int64_t> source_of(cells_.size());
  for (std::size_t j = 0; j < by_code.size(); ++j) source_of[by_code[j]] = static_cast<std::int64_t>(j);
  permute(source_of);
}

}  // namespace rubik
}  // namespace tofa
