#include "distance_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.hpp"
#include "faults/route_faults.hpp"
#include "faults/route_link_costs.hpp"

namespace tofa {
namespace anneal {

DistanceTable::DistanceTable(const Topology& topology, const std::vector<int>& nodes,
                             DistanceMetric metric, bool wrap_all)
    : nodes_(nodes), metric_(metric), dims_(topology.dimension_count()) {
  int largest_square_sum = 0;
  for (int d = 0; d < dims_; ++d) {
    const int length = topology.dims()[d];
    if (length > std::numeric_limits<std::int16_t>::max())
      throw Error("dimension " + std::to_string(d) + " has " + std::to_string(length) +
                  " nodes, more than annealing supports (32767)");
    const bool ring = wrap_all || topology.wrap()[d];
    zero_.push_back(static_cast<int>(steps_.size()) + length - 1);
    int longest = 0;
    for (int difference = -(length - 1); difference <= length - 1; ++difference) {
      const int straight = std::abs(difference);
      const int step = ring ? std::min(straight, length - straight) : straight;
      steps_.push_back(step);
      longest = std::max(longest, step);
    }
    largest_square_sum += longest * longest;
  }
  coords_.reserve(nodes.size() * dims_);
  for (int node : nodes) {
    if (node < 0 || node >= topology.node_count())
      throw Error("node " + std::to_string(node) + " is outside 0.." +
                  std::to_string(topology.node_count() - 1));
    for (int c : topology.coords(node)) coords_.push_back(static_cast<std::int16_t>(c));
  }
  if (metric == DistanceMetric::Euclidean) {
    root_.resize(largest_square_sum + 1);
    for (int s = 0; s <= largest_square_sum; ++s) root_[s] = std::sqrt(static_cast<double>(s));
  }
}

namespace {

/// The sites' coordinates as a trie: level d holds one entry per distinct
/// prefix (c_0 .. c_d), its children (the prefixes one coordinate longer)
/// contiguous on level d + 1; on the last level an entry is one site.
class SitePrefixTrie {
 public:
  struct Entry {
    int coordinate = 0;  ///< c_d of the prefix
    int first = 0;       ///< first child on level d + 1, or the site on the last level
    int count = 0;       ///< children
  };

  SitePrefixTrie(const std::vector<std::int16_t>& coords, int dims, std::size_t sites)
      : coords_(coords), dims_(dims), levels_(dims), order_(sites) {
    for (std::size_t i = 0; i < sites; ++i) order_[i] = static_cast<int>(i);
    std::sort(order_.begin(), order_.end(), [&](int a, int b) {
      return std::lexicographical_compare(&coords[a * dims], &coords[a * dims] + dims,
                                          &coords[b * dims], &coords[b * dims] + dims);
    });
    if (sites > 0) build(0, 0, sites);
  }

  const std::vector<Entry>& level(int d) const { return levels_[d]; }

 private:
  int coordinate(std::size_t at, int d) const { return coords_[order_[at] * dims_ + d]; }

  /// Entries of level d for order_[lo, hi), which share their prefix below d.
  void build(int d, std::size_t lo, std::size_t hi) {
    std::vector<std::pair<std::size_t, std::size_t>> groups;
    for (std::size_t at = lo; at < hi;) {
      std::size_t end = at + 1;
      while (end < hi && coordinate(end, d) == coordinate(at, d)) ++end;
      groups.emplace_back(at, end);
      at = end;
    }
    const std::size_t first = levels_[d].size();
    for (const auto& [begin, end] : groups)
      levels_[d].push_back({coordinate(begin, d), d + 1 == dims_ ? order_[begin] : 0, 0});
    if (d + 1 == dims_) return;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      Entry& entry = levels_[d][first + g];
      entry.first = static_cast<int>(levels_[d + 1].size());
      build(d + 1, groups[g].first, groups[g].second);  // appends below level d only
      entry.count = static_cast<int>(levels_[d + 1].size()) - entry.first;
    }
  }

  const std::vector<std::int16_t>& coords_;
  int dims_;
  std::vector<std::vector<Entry>> levels_;
  std::vector<int> order_;
};

}  // namespace

// The faulty links of every route's segments come from RouteFaults' rows.
void DistanceTable::add_fault_penalty(const Topology& topology, const std::vector<double>& outage,
                                      double penalty) {
  if (!(penalty > 0)) return;
  RouteFaults segments(topology, outage);
  // Faulty links of R(a,b) from every site a to every site b. The route's
  // first segment depends on b's coordinate 0 only, its second on
  // coordinates 0 and 1, ...: one walk per site a down a trie of the sites'
  // coordinate prefixes adds each segment once per prefix, not once per pair.
  const std::size_t n = nodes_.size();
  const SitePrefixTrie trie(coords_, dims_, n);
  std::vector<std::uint16_t> from_site(n * n);  // [a][b]: faulty links of R(a, b)
  for (std::size_t a = 0; a < n; ++a) {
    std::uint16_t* row = &from_site[a * n];
    // (level, first entry, entries, node reached, faulty links so far)
    const auto walk = [&](const auto& self, int d, int first, int count, int node, int links) -> void {
      const int base = segments.base(d, node);
      const std::uint16_t* along = segments.row(d, node);
      const SitePrefixTrie::Entry* entries = &trie.level(d)[first];
      if (d + 1 == dims_) {
        for (int e = 0; e < count; ++e)
          row[entries[e].first] = static_cast<std::uint16_t>(links + along[entries[e].coordinate]);
        return;
      }
      for (int e = 0; e < count; ++e)
        self(self, d + 1, entries[e].first, entries[e].count,
             base + entries[e].coordinate * segments.stride(d), links + along[entries[e].coordinate]);
    };
    walk(walk, 0, 0, static_cast<int>(trie.level(0).size()), nodes_[a], 0);
  }
  const bool any = std::any_of(from_site.begin(), from_site.end(), [](std::uint16_t c) { return c > 0; });
  if (!any) return;
  // Both directions halved, in tiles: a pair's two counts lie a row apart.
  // The metric's distance goes in too: the annealer then reads one float.
  constexpr std::size_t kTile = 64;
  with_penalty_.assign(n * n, 0.0f);
  for (std::size_t a0 = 0; a0 < n; a0 += kTile)
    for (std::size_t b0 = 0; b0 < n; b0 += kTile)
      for (std::size_t a = a0; a < std::min(n, a0 + kTile); ++a)
        for (std::size_t b = b0; b < std::min(n, b0 + kTile); ++b)
          with_penalty_[a * n + b] = static_cast<float>(
              metric_distance(static_cast<int>(a), static_cast<int>(b)) +
              penalty * (from_site[a * n + b] + from_site[b * n + a]) / 2);
}

void DistanceTable::add_link_costs(const Topology& topology, const std::vector<double>& link_extra) {
  const std::size_t n = nodes_.size();
  if (with_penalty_.empty()) {
    with_penalty_.resize(n * n);
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b)
        with_penalty_[a * n + b] =
            static_cast<float>(metric_distance(static_cast<int>(a), static_cast<int>(b)));
  }
  RouteLinkCosts along(topology, link_extra);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      const double both = (along.sum(nodes_[a], nodes_[b]) + along.sum(nodes_[b], nodes_[a])) / 2;
      with_penalty_[a * n + b] += static_cast<float>(both);
      with_penalty_[b * n + a] += static_cast<float>(both);
    }
}

}  // namespace anneal
}  // namespace tofa
