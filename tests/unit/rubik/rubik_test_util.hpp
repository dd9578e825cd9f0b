// Helpers shared by the Rubik tests.
#pragma once

#include <string>
#include <vector>

#include "base/error.hpp"
#include "map/rubik/rubik.hpp"

namespace rubik_test {

template <typename Statement>
std::string error_text(Statement statement) {
  try {
    statement();
  } catch (const tofa::Error& error) {
    return error.what();
  }
  return "<no exception>";
}

/// The elements (ranks) of a box, in its row-major order.
inline std::vector<std::int64_t> ranks(const tofa::rubik::Box& box) { return box.elements(); }

/// Coordinates (in the tree's root box) of the cell holding `rank`.
inline std::vector<int> where(const tofa::rubik::Tree& tree, std::int64_t rank) {
  return tree.coordinates(tree.cell_of_element().at(rank));
}

}  // namespace rubik_test
