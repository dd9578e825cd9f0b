#include "zorder.hpp"

#include <algorithm>
#include <utility>

namespace tofa {
namespace torus3d {
namespace {

/// Slurm's TOPO_RANK_ID_SHIFT: the Morton code gets the low 16 bits of a
/// rank (the torus index takes the bits above, one torus here).
constexpr int kRankBits = 16;

int bits_for(int span) {
  int bits = 0;
  for (int top = span - 1; top > 0; top >>= 1) ++bits;
  return bits;
}

}  // namespace

Arc min_wrap_span(const std::vector<char>& used) {
  const int length = static_cast<int>(used.size());
  int count = 0, first = -1, last = -1;
  for (int c = 0; c < length; ++c) {
    if (!used[c]) continue;
    ++count;
    if (first < 0) first = c;
    last = c;
  }
  if (count == 1) return Arc{first, 1};
  if (count == length) return Arc{0, length};
  if (2 * (last - first) < length + count) return Arc{first, last - first + 1};

  int largest_gap = length - (last - first + 1);  // the one across the wrap
  Arc arc{first, 0};
  int previous = first;
  for (int c = first + 1; c <= last; ++c) {
    if (!used[c]) continue;
    if (c - previous - 1 > largest_gap) {
      largest_gap = c - previous - 1;
      arc.start = c;
    }
    previous = c;
  }
  arc.span = length - largest_gap;
  return arc;
}

MortonBits morton_bits(const Triple& spans) {
  MortonBits result;
  Triple natural{};
  for (int axis = 0; axis < 3; ++axis) natural[axis] = result.bits[axis] = bits_for(spans[axis]);
  Triple& b = result.bits;
  while (b[0] + b[1] + b[2] > kRankBits) {
    if (b[0] >= b[1] && b[0] >= b[2])
      --b[0];
    else if (b[1] >= b[2])
      --b[1];
    else
      --b[2];
  }
  for (int axis = 0; axis < 3; ++axis) result.shift[axis] = natural[axis] - b[axis];
  return result;
}

std::uint32_t morton_code(const Triple& c, const Triple& bits) {
  std::uint32_t code = 0;
  int position = 0;
  const int rounds = std::max({bits[0], bits[1], bits[2]});
  for (int i = 0; i < rounds; ++i)
    for (int axis = 0; axis < 3; ++axis)
      if (i < bits[axis])
        code |= static_cast<std::uint32_t>((c[axis] >> i) & 1) << position++;
  return code;
}

std::vector<std::uint32_t> node_ranks(const Grid& grid, const std::vector<int>& nodes) {
  Arc arcs[3];
  if (static_cast<int>(nodes.size()) == grid.node_count()) {
    for (int axis = 0; axis < 3; ++axis) arcs[axis] = Arc{0, grid.dims[axis]};
  } else {
    for (int axis = 0; axis < 3; ++axis) {
      std::vector<char> used(grid.dims[axis], 0);
      for (int node : nodes) used[grid.coords(node)[axis]] = 1;
      arcs[axis] = min_wrap_span(used);
    }
  }
  const MortonBits morton = morton_bits({arcs[0].span, arcs[1].span, arcs[2].span});
  std::vector<std::uint32_t> ranks;
  ranks.reserve(nodes.size());
  for (int node : nodes) {
    const Triple c = grid.coords(node);
    Triple relative{};
    for (int axis = 0; axis < 3; ++axis)
      relative[axis] = ((c[axis] - arcs[axis].start + grid.dims[axis]) % grid.dims[axis]) >>
                       morton.shift[axis];
    ranks.push_back(morton_code(relative, morton.bits));
  }
  return ranks;
}

std::vector<int> zorder(const Grid& grid, std::vector<int> nodes) {
  const std::vector<std::uint32_t> ranks = node_ranks(grid, nodes);
  std::vector<std::pair<std::uint32_t, int>> keyed;
  keyed.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) keyed.emplace_back(ranks[i], nodes[i]);
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = keyed[i].second;
  return nodes;
}

}  // namespace torus3d
}  // namespace tofa
