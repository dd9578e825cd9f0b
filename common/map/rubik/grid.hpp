// Row-major (last dimension fastest) indexing of nD boxes, shared by the
// Rubik operations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tofa {
namespace rubik {

inline std::int64_t volume(const std::vector<int>& shape) {
  std::int64_t count = 1;
  for (int extent : shape) count *= extent;
  return count;
}

inline std::int64_t row_major_index(const std::vector<int>& shape, const std::vector<int>& at) {
  std::int64_t index = 0;
  for (std::size_t d = 0; d < shape.size(); ++d) index = index * shape[d] + at[d];
  return index;
}

inline std::vector<int> row_major_coordinates(const std::vector<int>& shape, std::int64_t index) {
  std::vector<int> at(shape.size());
  for (std::size_t d = shape.size(); d-- > 0;) {
    at[d] = static_cast<int>(index % shape[d]);
    index /= shape[d];
  }
  return at;
}

/// Advances `at` to the next cell in row-major order; false after the last.
inline bool next_cell(const std::vector<int>& shape, std::vector<int>& at) {
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (++at[d] < shape[d]) return true;
    at[d] = 0;
  }
  return false;
}

/// "4x4x4"
inline std::string shape_text(const std::vector<int>& shape) {
  std::string text;
  for (std::size_t d = 0; d < shape.size(); ++d) text += (d ? "x" : "") + std::to_string(shape[d]);
  return text;
}

}  // namespace rubik
}  // namespace tofa
