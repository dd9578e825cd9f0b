// The torus torus3d sees (a topology of 1 to 3 dimensions padded to x, y, z)
// and the admin-configured placement shapes with their anchor grids, as
// topology.yaml's "placements" list defines them (see strategy.cpp).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa {
namespace torus3d {

/// One value per axis x, y, z.
using Triple = std::array<int, 3>;

/// The topology as a 3D torus: missing trailing dimensions have length 1.
/// Node ids are x + X*(y + Y*z), the topology's own numbering (and the
/// x-major order in which topology.yaml's "nodes" list fills a torus).
struct Grid {
  Triple dims{1, 1, 1};
  /// False on a mesh dimension: there a box may not cross the edge.
  std::array<bool, 3> wrap{true, true, true};

  int node_count() const { return dims[0] * dims[1] * dims[2]; }
  int node_at(const Triple& c) const { return c[0] + dims[0] * (c[1] + dims[1] * c[2]); }
  Triple coords(int node) const {
    return {node % dims[0], (node / dims[0]) % dims[1], node / (dims[0] * dims[1])};
  }
  std::string text() const;  ///< "4x4x4"
};

/// Throws Error when the topology has more than 3 dimensions.
Grid grid_of(const Topology& topology);

/// A placement shape: a dims[0] x dims[1] x dims[2] box whose corners (the
/// anchors) sit at seed + k * spacing on each axis, modulo the axis length.
struct Shape {
  Triple dims{1, 1, 1};
  Triple spacing{1, 1, 1};  ///< topology.yaml anchor_spacing (default: dims)
  Triple seed{0, 0, 0};     ///< topology.yaml anchor_seed (default: 0,0,0)

  long long size() const { return static_cast<long long>(dims[0]) * dims[1] * dims[2]; }
  /// "2x2x2", with "/SXxSYxSZ" when spacing != dims and "@XxYxZ" when seed != 0.
  std::string text() const;
};

/// Parses --param shapes=AxBxC[/SXxSYxSZ][@XxYxZ],... (dims, optional anchor
/// spacing, optional anchor seed) and checks each shape against the grid as
/// Slurm checks topology.yaml: dims from 1 to the axis length, spacing from
/// 1 to the axis length, seed below the axis length. Throws Error naming the
/// shape and the rule otherwise.
std::vector<Shape> parse_shapes(const std::string& text, const Grid& grid);

/// The shapes of topology.yaml(5)'s and topology.html's torus3d example
/// (2x2x1, 2x2x2, 4x4x2) that fit in the grid, with default anchors.
std::vector<Shape> default_shapes(const Grid& grid);

/// The shapes by size, smallest first; equal sizes keep their given order.
std::vector<Shape> order_by_size(std::vector<Shape> shapes);

/// Anchor coordinates on one axis of length `length`: seed, seed + spacing,
/// ... modulo length, in that order, until the walk returns to seed.
std::vector<int> anchor_positions(int length, int spacing, int seed);

}  // namespace torus3d
}  // namespace tofa
