// From a Rubik network tree to nodes and launcher files: the rank -> node
// placement, Rubik's map file, Cray's MPICH_RANK_ORDER and SLURM_HOSTFILE.
#include <algorithm>
#include <numeric>
#include <ostream>

#include "base/error.hpp"
#include "grid.hpp"
#include "map/rubik/rubik.hpp"

namespace tofa {
namespace rubik {
namespace {

/// Node and core of every cell of the network tree.
struct CellSites {
  std::vector<int> node;
  std::vector<int> core;
};

CellSites sites_of(const Tree& network, const Topology& topology, int slots) {
  const std::vector<int>& shape = network.shape();
  const int dims = topology.dimension_count();
  const int given = static_cast<int>(shape.size());
  if (given != dims && given != dims + 1) {
    throw Error("the network box " + shape_text(shape) + " has " + std::to_string(given) +
                " dimensions; the topology (" + topology.describe() + ") needs " +
                std::to_string(dims) + ", or " + std::to_string(dims + 1) +
                " with a last dimension for the cores of a node");
  }
  for (int d = 0; d < dims; ++d) {
    if (shape[d] > topology.dims()[d]) {
      throw Error("the network box " + shape_text(shape) + " is larger than the topology in dimension " +
                  std::to_string(d) + " (" + std::to_string(shape[d]) + " > " +
                  std::to_string(topology.dims()[d]) + ")");
    }
  }
  if (given == dims + 1 && shape[dims] > slots) {
    throw Error("the network box " + shape_text(shape) + " puts " + std::to_string(shape[dims]) +
                " ranks on a node, which has " + std::to_string(slots) + " slots");
  }
  CellSites sites;
  const std::int64_t cells = network.size();
  sites.node.resize(cells);
  sites.core.resize(cells, 0);
  std::vector<int> at(shape.size(), 0), node_at(dims);
  std::int64_t cell = 0;
  do {
    std::copy(at.begin(), at.begin() + dims, node_at.begin());
    sites.node[cell] = topology.node_at(node_at);
    if (given == dims + 1) sites.core[cell] = at[dims];
    ++cell;
  } while (next_cell(shape, at));
  return sites;
}

void write_rank_list(std::ostream& out, const std::vector<std::int64_t>& ranks) {
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    out << (i ? "," : "") << ranks[i];
    if (j > i) out << '-' << ranks[j];
    i = j + 1;
  }
  out << '\n';
}

}  // namespace

Placement placement_on(const Tree& network, const Topology& topology, int slots) {
  const CellSites sites = sites_of(network, topology, slots);
  const std::vector<std::int64_t> cell_of = network.cell_of_element();
  Placement placement(cell_of.size());
  for (std::size_t rank = 0; rank < cell_of.size(); ++rank) placement[rank] = sites.node[cell_of[rank]];
  return placement;
}

void write_map_file(std::ostream& out, const Tree& network) {
  for (std::int64_t cell : network.cell_of_element()) {
    const std::vector<int> at = network.coordinates(cell);
    for (std::size_t d = 0; d < at.size(); ++d) out << (d ? " " : "") << at[d];
    out << '\n';
  }
}

void write_mpich_rank_order(std::ostream& out, const Tree& network) {
  network.cell_of_element();  // validates
  write_rank_list(out, network.elements());
}

void write_mpich_rank_order(std::ostream& out, const Tree& network, const Topology& topology,
                            int slots) {
  const CellSites sites = sites_of(network, topology, slots);
  network.cell_of_element();
  std::vector<std::int64_t> cells(network.size());
  std::iota(cells.begin(), cells.end(), 0);
  std::stable_sort(cells.begin(), cells.end(), [&](std::int64_t a, std::int64_t b) {
    return sites.node[a] != sites.node[b] ? sites.node[a] < sites.node[b] : sites.core[a] < sites.core[b];
  });
  std::vector<std::int64_t> ranks;
  ranks.reserve(cells.size());
  for (std::int64_t cell : cells) ranks.push_back(network.elements()[cell]);
  write_rank_list(out, ranks);
}

void write_hostfile(std::ostream& out, const Placement& placement, const Topology& topology) {
  for (int node : placement) out << topology.node_name(node) << '\n';
}

}  // namespace rubik
}  // namespace tofa
