// greedy-routes: greedy (seed TOFA 5.1) whose every step keeps the routes
// between a task and its placed partners clear of failing nodes. The seed
// gives a failing node's links a penalty so that traffic avoids them, and
// a job aborts when a node on one of its routes fails: a placement with no
// route through a failing node has P(abort) = 0. Plain greedy puts a task
// on the nearest free node whatever its routes cross; this one tries the
// kTriedNodes nearest fault-free free nodes in order of hops and takes the
// first whose routes R(n, p) and R(p, n) to every placed partner p cross no
// failing node, and only when none does, the nearest. When the fault-free
// candidates cannot hold the job it is greedy on every candidate.
//
// Order as in greedy: heaviest pairs first (stable on undirected_edges());
// a pair with neither task placed starts at the first fault-free candidate
// nearest the last placed task (the first fault-free candidate at first);
// tasks without bytes take the first free slot in candidate order. Ties of
// hops go to candidate order. O(tasks x candidates): auto uses it up to
// kGreedyRoutesMaxTasks.
#include <algorithm>
#include <utility>

#include "heaviest_pairs.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Nearest free nodes tried per task: bounds the route checks to
/// tasks x kTriedNodes x partners (trying every node found no more clear
/// placements on bench/quality.sh's (a) jobs).
/// Tuned on: bench/quality.sh (a), its 8 tuning graphs (587cabf).
constexpr std::size_t kTriedNodes = 64;

class GreedyRoutesMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    Capacity fit = check_capacity(request);
    const Topology& topology = *request.topology;
    const CommGraph& graph = *request.graph;
    const int slots = fit.slots;
    std::vector<int> candidates = std::move(fit.candidates);
    std::vector<int> fault_free;
    for (int node : candidates)
      if (!(outage_of(request, node) > 0)) fault_free.push_back(node);
    if (static_cast<long long>(fault_free.size()) * slots >= graph.task_count())
      candidates = std::move(fault_free);

    std::vector<char> failing(topology.node_count(), 0);
    for (int node = 0; node < topology.node_count(); ++node) failing[node] = outage_of(request, node) > 0;
    std::vector<int> free(topology.node_count(), 0), position(topology.node_count(), 0);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      free[candidates[i]] = slots;
      position[candidates[i]] = static_cast<int>(i);
    }
    Placement placement(graph.task_count(), -1);
    std::vector<int> route;
    auto clear = [&](int from, int to) {
      topology.route_nodes(from, to, route);
      return std::none_of(route.begin(), route.end(), [&](int node) { return failing[node] != 0; });
    };
    auto routes_clear = [&](int task, int node) {
      for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
        const int partner_node = placement[graph.adjacency()[k]];
        if (partner_node >= 0 && (!clear(node, partner_node) || !clear(partner_node, node))) return false;
      }
      return true;
    };
    // The free candidates nearest `origin` in hops (candidate order on ties);
    // of the kTriedNodes nearest, the first whose routes are clear, else the nearest.
    std::vector<std::pair<int, int>> by_hops;
    auto best_node = [&](int task, int origin) {
      by_hops.clear();
      for (int node : candidates)
        if (free[node] > 0)
          by_hops.emplace_back(origin < 0 ? 0 : topology.hop_distance(origin, node), position[node]);
      const std::size_t tried = std::min(by_hops.size(), kTriedNodes);
      std::partial_sort(by_hops.begin(), by_hops.begin() + tried, by_hops.end());
      for (std::size_t i = 0; i < tried; ++i)
        if (routes_clear(task, candidates[by_hops[i].second])) return candidates[by_hops[i].second];
      return candidates[by_hops.front().second];
    };
    int last_node = -1;
    auto place = [&](int task, int origin) {
      const int node = best_node(task, origin);
      --free[node];
      placement[task] = node;
      last_node = node;
    };

    place_heaviest_pairs_first(
        graph, placement, [&](int task) { place(task, last_node); },
        [&](int task, int node) { place(task, node); }, [&](int task) { place(task, -1); });
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_greedy_routes_mapper() { return std::make_unique<GreedyRoutesMapper>(); }

}  // namespace tofa
