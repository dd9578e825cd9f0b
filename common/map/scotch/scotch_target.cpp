// Scotch target architectures for the tofa strategy, with a small cache:
// building the fault-weighted architecture of 512 nodes takes a few ms.
#include "scotch_target.hpp"

#include <algorithm>
#include <cmath>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <tuple>
#include <utility>

#include "base/error.hpp"
#include "deco_arch.hpp"

namespace tofa {
namespace scotch {
namespace {

constexpr int kTorusMaxDimensions = 5;  // SCOTCH_archTorusX refuses more
constexpr long long kMaxLinkWeight = 1 << 20;
constexpr std::size_t kCacheEntries = 8;
// Largest target built with exact distances: SCOTCH_archBuild0 keeps a
// table of (2n)^2 / 2 distances (8 MB for 1024 nodes) and takes ~0.5 s for
// 512; SCOTCH_archBuild2 approximates distances but builds in a few ms.
constexpr std::size_t kExactDistanceLimit = 1024;

struct CacheKey {
  bool fault_weighted = false;
  std::vector<int> dims;
  std::vector<bool> wrap;
  std::vector<int> nodes;
  std::vector<bool> faulty;  // empty for topology targets
  double link_cost = 0;
  double penalty = 0;

  bool operator==(const CacheKey& other) const {
    return fault_weighted == other.fault_weighted && dims == other.dims &&
           wrap == other.wrap && nodes == other.nodes && faulty == other.faulty &&
           link_cost == other.link_cost && penalty == other.penalty;
  }
};

/// Most recently used first. Guarded by the Scotch lock.
std::list<std::pair<CacheKey, std::shared_ptr<const Target>>>& cache() {
  static std::list<std::pair<CacheKey, std::shared_ptr<const Target>>> entries;
  return entries;
}

std::shared_ptr<const Target> cached(const CacheKey& key) {
  auto& entries = cache();
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->first == key) {
      entries.splice(entries.begin(), entries, it);
      return entries.front().second;
    }
  }
  return nullptr;
}

std::shared_ptr<const Target> remember(CacheKey key, std::shared_ptr<const Target> target) {
  auto& entries = cache();
  entries.emplace_front(std::move(key), target);
  if (entries.size() > kCacheEntries) entries.pop_back();
  return target;
}

/// The topology graph (all nodes, one edge per neighbour pair) with the
/// given integer weight per link.
template <typename WeightOf>
std::unique_ptr<Graph> topology_graph(const Topology& topology, WeightOf weight_of) {
  std::vector<SCOTCH_Num> offsets{0};
  std::vector<SCOTCH_Num> adjacency;
  std::vector<SCOTCH_Num> weights;
  for (int node = 0; node < topology.node_count(); ++node) {
    for (int neighbour : topology.neighbours(node)) {
      adjacency.push_back(neighbour);
      weights.push_back(static_cast<SCOTCH_Num>(weight_of(node, neighbour)));
    }
    offsets.push_back(static_cast<SCOTCH_Num>(adjacency.size()));
  }
  return std::make_unique<Graph>(std::move(offsets), std::move(adjacency), std::move(weights));
}

bool is_identity(const std::vector<int>& nodes, int node_count) {
  if (nodes.size() != static_cast<std::size_t>(node_count)) return false;
  for (int i = 0; i < node_count; ++i)
    if (nodes[i] != i) return false;
  return true;
}

/// `base` cut down to `nodes` with SCOTCH_archSub.
std::unique_ptr<Arch> sub_arch(Arch& base, const std::vector<int>& nodes) {
  // Scotch 7.0.3 dereferences invalid memory for a one-terminal sub-architecture.
  if (nodes.size() < 2) throw Error("a Scotch target needs at least 2 nodes");
  std::vector<SCOTCH_Num> list(nodes.begin(), nodes.end());
  auto sub = std::make_unique<Arch>();
  check(SCOTCH_archSub(sub->get(), base.get(), static_cast<SCOTCH_Num>(list.size()), list.data()),
        "SCOTCH_archSub");
  return sub;
}

/// Decomposition-defined architecture of `graph` (every topology node) as a
/// Target over `nodes`. Scotch computes distances inside the graph it is
/// given, so the graph always holds every node (routes may leave `nodes`)
/// and a subset is cut out with SCOTCH_archSub afterwards.
std::shared_ptr<const Target> deco_target(Graph& graph, const std::vector<int>& nodes,
                                          long long max_distance) {
  const int node_count = graph.vertex_count();
  auto base = std::make_unique<Arch>();
  // Both builds bipartition the graph with random choices, drawn from
  // Scotch's process-wide generator (not the context's): reset under a lock,
  // so that a request always gets one target (3 of 4 tofa-map runs differed
  // on 3,000 of 16x16x16's nodes); one thread, as for mapping.
  static std::mutex random_lock;
  const std::lock_guard<std::mutex> hold(random_lock);
  SCOTCH_randomSeed(0);
  SCOTCH_randomReset();
  SingleThreadGraph bound(graph, 0);
  if (is_identity(nodes, node_count) && nodes.size() <= kExactDistanceLimit) {
    Strat strat;  // empty: Scotch's default bipartitioning strategy
    check(SCOTCH_archBuild0(base->get(), bound.get(), 0, nullptr, strat.get()),
          "SCOTCH_archBuild0");
    return std::make_shared<Target>(std::move(base), nullptr, nodes, nodes, max_distance);
  }
  // archBuild0 architectures cannot be cut with SCOTCH_archSub.
  check(SCOTCH_archBuild2(base->get(), bound.get(), 0, nullptr), "SCOTCH_archBuild2");
  std::unique_ptr<Arch> sub;
  if (!is_identity(nodes, node_count)) sub = sub_arch(*base, nodes);
  return std::make_shared<Target>(std::move(base), std::move(sub), nodes, nodes, max_distance);
}

/// torusXD / mesh2D / mesh3D for the whole topology, or nullptr when Scotch
/// has no algebraic architecture that measures hops like ours.
std::unique_ptr<Arch> algebraic_arch(const Topology& topology) {
  const std::vector<int>& dims = topology.dims();
  const int count = topology.dimension_count();
  const bool all_wrap = std::all_of(topology.wrap().begin(), topology.wrap().end(),
                                    [](bool w) { return w; });
  const bool none_wraps = std::none_of(topology.wrap().begin(), topology.wrap().end(),
                                       [](bool w) { return w; });
  auto arch = std::make_unique<Arch>();
  if (all_wrap && count <= kTorusMaxDimensions) {
    std::vector<SCOTCH_Num> sizes(dims.begin(), dims.end());
    check(SCOTCH_archTorusX(arch->get(), count, sizes.data()), "SCOTCH_archTorusX");
  } else if (none_wraps && count <= 2) {
    check(SCOTCH_archMesh2(arch->get(), dims[0], count == 2 ? dims[1] : 1), "SCOTCH_archMesh2");
  } else if (none_wraps && count == 3) {
    check(SCOTCH_archMesh3(arch->get(), dims[0], dims[1], dims[2]), "SCOTCH_archMesh3");
  } else {
    return nullptr;
  }
  return arch;
}

long long hop_diameter_bound(const Topology& topology) {
  return std::accumulate(topology.dims().begin(), topology.dims().end(), 0LL);
}

}  // namespace

Target::Target(std::unique_ptr<Arch> base, std::unique_ptr<Arch> sub, std::vector<int> nodes,
               std::vector<int> terminal_nodes, long long max_distance)
    : base_(std::move(base)), sub_(std::move(sub)), nodes_(std::move(nodes)),
      terminal_nodes_(std::move(terminal_nodes)), max_distance_(max_distance) {}

int Target::node_of_terminal(SCOTCH_Num terminal) const {
  if (terminal < 0 || static_cast<std::size_t>(terminal) >= terminal_nodes_.size() ||
      terminal_nodes_[terminal] < 0)
    throw Error("Scotch returned terminal " + std::to_string(terminal) + ", which is not a node");
  return terminal_nodes_[terminal];
}

int Target::distance(int i, int j, const Lock&) const {
  if (std::string(SCOTCH_archName(this->arch())) == "deco" && !sub_)
    throw Error("terminal distances are not available on this target");
  SCOTCH_Arch* arch = const_cast<SCOTCH_Arch*>(this->arch());
  SCOTCH_ArchDom first;
  SCOTCH_ArchDom second;
  check(SCOTCH_archDomTerm(arch, &first, i), "SCOTCH_archDomTerm");
  check(SCOTCH_archDomTerm(arch, &second, j), "SCOTCH_archDomTerm");
  return static_cast<int>(SCOTCH_archDomDist(arch, &first, &second));
}

std::shared_ptr<const Target> topology_target(const Topology& topology,
                                              const std::vector<int>& nodes, const Lock&) {
  CacheKey key;
  key.dims = topology.dims();
  key.wrap = topology.wrap();
  key.nodes = nodes;
  if (auto hit = cached(key)) return hit;

  std::unique_ptr<Arch> base = algebraic_arch(topology);
  if (!base) {
    auto graph = topology_graph(topology, [](int, int) { return 1; });
    return remember(std::move(key), deco_target(*graph, nodes, hop_diameter_bound(topology)));
  }
  std::unique_ptr<Arch> sub;
  if (!is_identity(nodes, topology.node_count())) sub = sub_arch(*base, nodes);
  return remember(std::move(key),
                  std::make_shared<Target>(std::move(base), std::move(sub), nodes, nodes,
                                           hop_diameter_bound(topology)));
}

std::shared_ptr<const Target> fault_weighted_target(const Topology& topology,
                                                    const std::vector<int>& nodes,
                                                    const std::vector<double>& outage,
                                                    const FaultCost& cost, const Lock&) {
  if (outage.size() != static_cast<std::size_t>(topology.node_count()))
    throw Error("outage has " + std::to_string(outage.size()) + " entries, expected " +
                std::to_string(topology.node_count()));
  CacheKey key;
  key.fault_weighted = true;
  key.dims = topology.dims();
  key.wrap = topology.wrap();
  key.nodes = nodes;
  for (double p : outage) key.faulty.push_back(p > 0);
  key.link_cost = cost.link_cost;
  key.penalty = cost.penalty;
  if (auto hit = cached(key)) return hit;

  // Costs are multiples of c, so c itself becomes 1 and a link with a
  // faulty endpoint 1 + penalty.
  const double unit = cost.link_cost > 0 ? cost.link_cost : 1.0;
  if (nodes.size() <= kExplicitDistanceLimit) {
    // Equation 1 along R(u,v) and R(v,u): the two directions of a pair.
    const int count = static_cast<int>(nodes.size());
    DistanceTable distances{count, std::vector<long long>(static_cast<std::size_t>(count) * count)};
    long long farthest = 1;
    for (int i = 0; i < count; ++i)
      for (int j = 0; j < i; ++j) {
        const double w = fault_weighted_distance(topology, outage, nodes[i], nodes[j], cost) +
                         fault_weighted_distance(topology, outage, nodes[j], nodes[i], cost);
        const long long d = std::llround(std::clamp(w / unit, 1.0, double(kMaxLinkWeight)));
        distances.values[static_cast<std::size_t>(i) * count + j] = d;
        distances.values[static_cast<std::size_t>(j) * count + i] = d;
        farthest = std::max(farthest, d);
      }
    std::vector<std::vector<int>> coords(count);
    for (int i = 0; i < count; ++i) coords[i] = topology.coords(nodes[i]);
    return remember(std::move(key),
                    std::make_shared<Target>(explicit_distance_arch(distances, coords), nullptr,
                                             nodes, nodes, farthest));
  }
  // Too many nodes for a distance table: shortest paths in the topology
  // graph with each link weighted by Equation 1 (they may go around a
  // faulty node where the route goes through it).
  long long heaviest = 1;
  auto weight_of = [&](int from, int to) {
    const double c = link_cost(Link{from, to, 0, +1}, outage, cost);
    const long long w = std::clamp(std::llround(c / unit), 1LL, kMaxLinkWeight);
    heaviest = std::max(heaviest, w);
    return w;
  };
  auto graph = topology_graph(topology, weight_of);
  return remember(std::move(key),
                  deco_target(*graph, nodes, hop_diameter_bound(topology) * heaviest));
}

}  // namespace scotch
}  // namespace tofa
