#include "group_block.hpp"

#include <tuple>

namespace tofa {
namespace stencil {

Triple group_block(const Triple& shape, int slots) {
  Triple best{1, 1, 1};
  auto score = [](const Triple& b) {
    // Larger is better in every component.
    return std::make_tuple(b[0] * b[1] * b[2], -(b[0] * b[1] + b[1] * b[2] + b[2] * b[0]), b[2],
                           b[1]);
  };
  for (int a = 1; a <= shape[0] && a <= slots; ++a) {
    if (shape[0] % a) continue;
    for (int b = 1; b <= shape[1] && a * b <= slots; ++b) {
      if (shape[1] % b) continue;
      for (int c = 1; c <= shape[2] && a * b * c <= slots; ++c) {
        if (shape[2] % c) continue;
        const Triple candidate{a, b, c};
        if (score(candidate) > score(best)) best = candidate;
      }
    }
  }
  return best;
}

}  // namespace stencil
}  // namespace tofa
