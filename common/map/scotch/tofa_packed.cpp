// tofa-packed: Listing 1.1 onto the ceil(tasks/slots) candidates nearest
// together, wherever they are in the candidate order. tofa takes the first
// run of the order, which on a fragmented machine may be spread out; on
// 8-core nodes Scotch onto the tightest set of nodes (bench/quality.sh's
// packed anchor) beat auto on two of (c)'s half-busy jobs before auto
// tried this strategy.
#include <algorithm>

#include "scotch_map.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Seeds: every candidate up to this many, else this many spread over the
/// candidate order (the choice stays linear in the candidates).
constexpr std::size_t kMaxSeeds = 64;

/// While seeds x needed^2 / 2 stays below this, a seed's nodes are scored by
/// the hops between every two of them (as bench/quality.sh's packed anchor);
/// above, by their hops to the seed.
constexpr double kMaxPairs = 1 << 21;

/// The fault-free candidates when they hold `needed` nodes, else all.
std::vector<int> pool_of(const MappingRequest& request, const std::vector<int>& candidates,
                         int needed) {
  std::vector<int> fault_free;
  for (int node : candidates)
    if (outage_of(request, node) == 0) fault_free.push_back(node);
  return static_cast<int>(fault_free.size()) >= needed ? fault_free : candidates;
}

/// The `needed` nodes of the pool nearest to one seed, for the seed whose
/// nodes lie fewest hops apart (or from the seed); in candidate order.
std::vector<int> packed_nodes(const MappingRequest& request, const std::vector<int>& candidates,
                              int needed) {
  const std::vector<int> pool = pool_of(request, candidates, needed);
  const Topology& topology = *request.topology;
  const std::size_t seeds = std::min(pool.size(), kMaxSeeds);
  const bool pairwise = static_cast<double>(seeds) * needed * needed / 2 <= kMaxPairs;
  std::vector<std::pair<int, int>> by_distance(pool.size());  // (hops, position)
  std::vector<int> best;
  long long best_hops = -1;
  for (std::size_t s = 0; s < seeds; ++s) {
    const int seed = pool[s * pool.size() / seeds];
    for (std::size_t i = 0; i < pool.size(); ++i)
      by_distance[i] = {topology.hop_distance(seed, pool[i]), static_cast<int>(i)};
    std::nth_element(by_distance.begin(), by_distance.begin() + (needed - 1), by_distance.end());
    long long hops = 0;
    for (int i = 0; i < needed; ++i) {
      if (!pairwise) {
        hops += by_distance[i].first;
        continue;
      }
      for (int j = 0; j < i; ++j)
        hops += topology.hop_distance(pool[by_distance[i].second], pool[by_distance[j].second]);
    }
    if (best_hops >= 0 && hops >= best_hops) continue;
    best_hops = hops;
    std::vector<int> positions(needed);
    for (int i = 0; i < needed; ++i) positions[i] = by_distance[i].second;
    std::sort(positions.begin(), positions.end());
    best.clear();
    for (int position : positions) best.push_back(pool[position]);
  }
  return best;
}

class TofaPackedMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const Capacity fit = check_capacity(request);
    if (fit.tasks == 0) return {};
    return map_onto_nodes(request, packed_nodes(request, fit.candidates, fit.nodes_needed()));
  }
};

}  // namespace

std::unique_ptr<Mapper> make_tofa_packed_mapper() { return std::make_unique<TofaPackedMapper>(); }

}  // namespace tofa
