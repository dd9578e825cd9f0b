// nD torus / mesh topologies with dimension-order routing.
#pragma once

#include <string>
#include <vector>

#include "base/size_limit.hpp"

namespace tofa {

/// A directed physical link between two neighbouring nodes.
struct Link {
  int from = 0;
  int to = 0;
  int dimension = 0;
  int direction = +1;  ///< +1 or -1 along `dimension`
  bool operator==(const Link& other) const {
    return from == other.from && to == other.to && dimension == other.dimension &&
           direction == other.direction;
  }
};

/// The path R(u,v) a message takes.
struct Route {
  std::vector<Link> links;               ///< in travel order; empty when u == v
  std::vector<int> intermediate_nodes;   ///< nodes strictly between u and v
  int hops() const { return static_cast<int>(links.size()); }
};

/// Limits checked before anything is allocated (node names, routes, Scotch
/// targets all grow with the node count): far above any torus machine built
/// (Fugaku: 158,976 nodes), small enough that the names and routing tables of
/// one topology stay below a few hundred MB.
constexpr long long kMaxTopologyNodes = size_limit(1LL << 20, 1LL << 12);
constexpr int kMaxTopologyDimensions = 16;

/// Node ids are linear: id = c[0] + dims[0]*(c[1] + dims[1]*(c[2] + ...)),
/// i.e. the first dimension varies fastest (Scotch's and SimGrid's numbering).
class Topology {
 public:
  /// `wrap[d]` true makes dimension d a ring. Throws Error on empty dims,
  /// a size < 1, mismatched wrap size, cores_per_node < 1, or more than
  /// kMaxTopologyDimensions dimensions or kMaxTopologyNodes nodes.
  Topology(std::vector<int> dims, std::vector<bool> wrap, int cores_per_node = 1);

  /// "torus:8x8x8", "mesh:4x4", optional ":cores=N" suffix. Nodes are named
  /// "n<id>". Throws Error naming the spec and what was expected.
  static Topology from_spec(const std::string& spec);

  int dimension_count() const { return static_cast<int>(dims_.size()); }
  const std::vector<int>& dims() const { return dims_; }
  const std::vector<bool>& wrap() const { return wrap_; }
  int cores_per_node() const { return cores_per_node_; }
  int node_count() const { return node_count_; }
  bool is_full_torus() const;  ///< every dimension wraps

  std::vector<int> coords(int node) const;
  int node_at(const std::vector<int>& coords) const;  ///< throws Error if out of range

  /// Dimension-order routing: dimension 0 first, then 1, ... In a ring the
  /// shorter way is taken; at distance exactly L/2 the route goes +1, except
  /// from coordinate L/2, which goes -1 (SimGrid 3.32's TorusZone rule).
  Route route(int from, int to) const;
  /// The nodes of R(from, to) in travel order, from and to included, into
  /// `nodes` (reused: no allocation once it has grown).
  void route_nodes(int from, int to, std::vector<int>& nodes) const;
  /// The link_ids of R(from, to) in travel order into `ids` (reused).
  void route_link_ids(int from, int to, std::vector<int>& ids) const;
  int hop_distance(int from, int to) const;
  /// +1 or -1: the direction of a route's next hop along `dimension` from
  /// coordinate `from` to coordinate `to` (they differ), the rule above.
  int hop_direction(int dimension, int from, int to) const;
  /// Neighbours in order (dimension 0 +, dimension 0 -, dimension 1 +, ...),
  /// without duplicates (a ring of 2 has one neighbour per dimension).
  std::vector<int> neighbours(int node) const;

  /// Dense id of a directed link in [0, link_slot_count()).
  int link_id(const Link& link) const;
  int link_slot_count() const { return node_count_ * 2 * dimension_count(); }
  /// The link of a link_id (its `to` is the neighbour that way; on a mesh
  /// an id past the edge names a link that does not exist). Throws Error
  /// outside [0, link_slot_count()).
  Link link_of(int id) const;
  /// The link_id of the same link travelled the other way (from its `to`
  /// back to its `from`). Throws Error outside [0, link_slot_count()).
  int reverse_link_id(int id) const;

  const std::string& node_name(int node) const { return names_.at(node); }
  const std::vector<std::string>& node_names() const { return names_; }
  /// -1 when unknown.
  int node_by_name(const std::string& name) const;
  /// Replaces the names (one per node, unique). Throws Error otherwise.
  void set_node_names(std::vector<std::string> names);

  std::string describe() const;  ///< e.g. "torus 8x8x8, 1 core(s) per node"

 private:
  /// Calls step(link) for each link of R(from, to), `hops` of them.
  template <typename Step>
  void walk_route(int from, int to, int hops, Step step) const;

  std::vector<int> dims_;
  std::vector<bool> wrap_;
  int cores_per_node_;
  int node_count_;
  std::vector<std::string> names_;
  std::vector<std::pair<std::string, int>> sorted_names_;  // for node_by_name
};

/// Reads a topology file (tofa.conf syntax, see README):
///   Dims=8x8x8 [Wrap=yes|no|yes,no,...] [CoresPerNode=N]
///   NodeName=n[000-511] [Coord=x,y,z]
/// A NodeName line without Coord takes the next linear ids in order; with
/// Coord, its first name gets that coordinate and the rest follow linearly.
/// Every coordinate must be named exactly once. Throws ParseError.
Topology read_topology_file(const std::string& path);
Topology parse_topology(std::istream& in, const std::string& source_name);

/// Either a spec ("torus:8x8x8") or a whole tofa.conf file, whose service
/// settings are checked and skipped (defined in service/tofa_conf.cpp).
Topology load_topology(const std::string& spec_or_path);

/// Slurm hostlist expansion: "n[1-3,7],gpu[01-02]x" -> n1 n2 n3 n7 gpu01x gpu02x.
/// Zero padding follows the width of the range's first number. Throws Error.
/// Throws Error "bad hostlist ...: expands to more than MAX names" before
/// allocating them when the expansion would exceed `max_names`.
constexpr std::size_t kDefaultMaxHostlistNames = size_limit(1LL << 20, 1LL << 12);
std::vector<std::string> expand_hostlist(const std::string& hostlist,
                                         std::size_t max_names = kDefaultMaxHostlistNames);

/// For each node, the (from, to) pairs whose routes pass through it as an
/// intermediate hop, over routes between the given endpoints (all nodes when
/// `endpoints` is empty).
class RouteRegistry {
 public:
  RouteRegistry(const Topology& topology, const std::vector<int>& endpoints = {});
  const std::vector<std::pair<int, int>>& routes_through(int node) const {
    return through_.at(node);
  }

 private:
  std::vector<std::vector<std::pair<int, int>>> through_;
};

/// A locality-preserving order of all nodes (boustrophedon "snake" walk,
/// dimension 0 fastest), so that consecutive nodes in the order are neighbours.
std::vector<int> snake_order(const Topology& topology);

}  // namespace tofa
