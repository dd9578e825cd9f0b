// "embed": coordinates for the tasks from their graph (Pivot MDS, turned to
// the domain's faces), then recursive coordinate bisection onto a compact
// block of candidates. It
// needs no Scotch and grows as pivots x (tasks + edges): 0.2 s for 32,768
// tasks, where Scotch takes seconds, with 15% fewer hop-bytes than Scotch
// on geometric neighbour graphs (bench/quality.sh).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "axis_alignment.hpp"
#include "base/error.hpp"
#include "coordinate_bisection.hpp"
#include "pivot_mds.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Pivots of the embedding: beyond a few dozen the coordinates hardly move.
constexpr int kPivots = 32;

/// The nodes the job takes: ceil(tasks / slots) of them, from the
/// fault-free candidates when they suffice, nearest (in hops) to the first
/// such candidate, ties in candidate order.
std::vector<int> compact_nodes(const MappingRequest& request, const Capacity& fit) {
  const std::size_t needed = static_cast<std::size_t>(fit.nodes_needed());
  std::vector<int> pool;
  for (int node : fit.candidates)
    if (!(outage_of(request, node) > 0)) pool.push_back(node);
  if (pool.size() < needed) pool = fit.candidates;
  if (pool.size() > needed) {
    const int origin = pool.front();
    std::vector<int> hops(pool.size());
    for (std::size_t i = 0; i < pool.size(); ++i)
      hops[i] = request.topology->hop_distance(origin, pool[i]);
    std::vector<std::size_t> order(pool.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return hops[a] < hops[b]; });
    std::vector<int> nearest;
    for (std::size_t i = 0; i < needed; ++i) nearest.push_back(pool[order[i]]);
    pool = std::move(nearest);
  }
  return pool;
}

class EmbedMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const Capacity fit = check_capacity(request);
    if (fit.tasks == 0) return {};
    const std::vector<int> nodes = compact_nodes(request, fit);
    const int axes = request.topology->dimension_count();
    std::vector<double> coords = embed::pivot_mds(*request.graph, axes, std::max(kPivots, axes));
    embed::align_axes_to_faces(coords, axes);
    return embed::coordinate_bisection(coords, axes, *request.topology, nodes, fit.slots);
  }
};

}  // namespace

std::unique_ptr<Mapper> make_embed_mapper() { return std::make_unique<EmbedMapper>(); }

}  // namespace tofa
