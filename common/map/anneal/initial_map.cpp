#include "initial_map.hpp"

#include <algorithm>
#include <limits>
#include <queue>

#include "base/error.hpp"

namespace tofa {
namespace anneal {
namespace {

/// Site of the heaviest placed partner of `task`, or -1.
int heaviest_placed_partner_site(const PlacementState& state, int task) {
  const CommGraph& graph = state.graph();
  int site = -1;
  double heaviest = -1;
  for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
    const int there = state.site_of(graph.adjacency()[k]);
    if (there >= 0 && graph.bytes()[k] > heaviest) {
      heaviest = graph.bytes()[k];
      site = there;
    }
  }
  return site;
}

/// Among `anchor` and the sites around it with room, the one where `task`
/// is closest to its placed partners (weighted), nearer `anchor` on ties;
/// nearest_with_room when none of them has room.
int best_site_near(const PlacementState& state, const SiteNeighbourhood& around, int task,
                   int anchor) {
  const CommGraph& graph = state.graph();
  int best = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  double best_distance = 0;
  auto consider = [&](int site) {
    if (!state.can_take(site)) return;
    double cost = 0;
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      const int there = state.site_of(graph.adjacency()[k]);
      if (there >= 0) cost += graph.bytes()[k] * state.sites().distance(site, there);
    }
    const double distance = state.sites().distance(site, anchor);
    if (cost < best_cost || (cost == best_cost && distance < best_distance)) {
      best = site;
      best_cost = cost;
      best_distance = distance;
    }
  };
  consider(anchor);
  for (int site : around.around(anchor)) consider(site);
  return best >= 0 ? best : nearest_with_room(state, around, anchor);
}

/// The stage's unplaced partners of `task` into `partners` (reused across
/// calls), heaviest traffic first.
void unplaced_partners_heaviest_first(const PlacementState& state,
                                      const std::vector<char>& in_stage, int task,
                                      std::vector<std::pair<double, int>>& partners) {
  const CommGraph& graph = state.graph();
  partners.clear();
  for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
    const int partner = graph.adjacency()[k];
    if (in_stage[partner] && state.site_of(partner) < 0)
      partners.emplace_back(-graph.bytes()[k], partner);
  }
  std::sort(partners.begin(), partners.end());
}

}  // namespace

int nearest_with_room(const PlacementState& state, const SiteNeighbourhood& around, int anchor) {
  if (anchor >= 0) {
    if (state.can_take(anchor)) return anchor;
    for (int site : around.adjacent(anchor))
      if (state.can_take(site)) return site;
  }
  int best = -1;
  double best_distance = std::numeric_limits<double>::infinity();
  for (int site = 0; site < state.site_count(); ++site) {
    if (!state.can_take(site)) continue;
    if (anchor < 0) return site;
    const double d = state.sites().distance(anchor, site);
    if (d < best_distance) {
      best_distance = d;
      best = site;
    }
  }
  if (best < 0) throw Error("no site has room for another task");
  return best;
}

std::vector<int> lightest_first(const CommGraph& graph, const std::vector<int>& stage) {
  const std::vector<double> volume = graph.task_volumes();
  std::vector<int> order = stage;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return volume[a] < volume[b]; });
  return order;
}

StartKind parse_start_kind(const std::string& text) {
  if (text == "grow") return StartKind::Grow;
  if (text == "heuristic") return StartKind::Heuristic;
  if (text == "basic") return StartKind::BasicHeuristic;
  if (text == "rank") return StartKind::RankOrder;
  if (text == "random") return StartKind::Random;
  if (text == "scotch") return StartKind::Given;
  throw Error("unknown start '" + text + "': expected grow, heuristic, basic, rank, random or scotch");
}

void basic_heuristic_start(PlacementState& state, const SiteNeighbourhood& around,
                           const std::vector<int>& stage) {
  const CommGraph& graph = state.graph();
  std::vector<char> in_stage(graph.task_count(), 0);
  for (int task : stage) in_stage[task] = 1;
  const std::vector<int> order = lightest_first(graph, stage);

  int previous_seed_site = -1;
  std::vector<std::pair<double, int>> partners;
  for (int task : order) {
    if (state.site_of(task) < 0) {
      int anchor = heaviest_placed_partner_site(state, task);
      if (anchor < 0) anchor = previous_seed_site;
      const int site = nearest_with_room(state, around, anchor);
      state.place(task, site);
      previous_seed_site = site;
    }
    unplaced_partners_heaviest_first(state, in_stage, task, partners);
    for (const auto& entry : partners)
      state.place(entry.second, nearest_with_room(state, around, state.site_of(task)));
  }
}

void heuristic_start(PlacementState& state, const SiteNeighbourhood& around,
                     const std::vector<int>& stage) {
  const CommGraph& graph = state.graph();
  std::vector<char> in_stage(graph.task_count(), 0);
  for (int task : stage) in_stage[task] = 1;
  const std::vector<int> by_volume = lightest_first(graph, stage);

  // Traffic of each stage task to placed tasks; a max-heap with stale entries.
  std::vector<double> pull(graph.task_count(), 0.0);
  std::vector<char> expanded(graph.task_count(), 0);
  std::priority_queue<std::pair<double, int>> next;  // (pull, -task)
  auto note_placed = [&](int task) {
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      const int partner = graph.adjacency()[k];
      if (!in_stage[partner] || expanded[partner]) continue;
      pull[partner] += graph.bytes()[k];
      next.emplace(pull[partner], -partner);
    }
  };
  for (int task = 0; task < graph.task_count(); ++task)
    if (state.site_of(task) >= 0) note_placed(task);

  std::size_t cursor = 0;  // into by_volume, for when nothing pulls
  int previous_seed_site = -1;
  std::vector<std::pair<double, int>> partners;
  for (std::size_t done = 0; done < stage.size(); ++done) {
    int task = -1;
    while (!next.empty() && task < 0) {
      const auto top = next.top();
      next.pop();
      if (!expanded[-top.second] && top.first == pull[-top.second]) task = -top.second;
    }
    while (task < 0) {
      if (!expanded[by_volume[cursor]]) task = by_volume[cursor];
      ++cursor;
    }
    expanded[task] = 1;
    if (state.site_of(task) < 0) {
      int anchor = heaviest_placed_partner_site(state, task);
      if (anchor < 0) anchor = previous_seed_site;
      const int site = anchor < 0 ? nearest_with_room(state, around, anchor)
                                  : best_site_near(state, around, task, anchor);
      state.place(task, site);
      note_placed(task);
      previous_seed_site = site;
    }
    unplaced_partners_heaviest_first(state, in_stage, task, partners);
    for (const auto& entry : partners) {
      state.place(entry.second, best_site_near(state, around, entry.second, state.site_of(task)));
      note_placed(entry.second);
    }
  }
}

void rank_order_start(PlacementState& state, const std::vector<int>& stage) {
  std::vector<int> order = stage;
  std::sort(order.begin(), order.end());
  int site = 0;
  for (int task : order) {
    if (state.site_of(task) >= 0) continue;
    while (site < state.site_count() && !state.can_take(site)) ++site;
    if (site == state.site_count()) throw Error("no site has room for another task");
    state.place(task, site);
  }
}

void random_start(PlacementState& state, const std::vector<int>& stage, RandomStream& random) {
  // Every site once per task it could still take; a slot whose site has
  // meanwhile used up the sites allowed at the highest load is skipped.
  std::vector<int> slots;
  for (int site = 0; site < state.site_count(); ++site)
    for (int load = state.load(site); load < state.bounds().highest; ++load) slots.push_back(site);
  for (std::size_t i = slots.size(); i > 1; --i)
    std::swap(slots[i - 1], slots[random.below(static_cast<std::uint32_t>(i))]);
  std::vector<int> order = stage;
  std::sort(order.begin(), order.end());
  std::size_t next = 0;
  for (int task : order) {
    if (state.site_of(task) >= 0) continue;
    while (next < slots.size() && !state.can_take(slots[next])) ++next;
    if (next == slots.size()) throw Error("no site has room for another task");
    state.place(task, slots[next++]);
  }
}

void given_start(PlacementState& state, const SiteNeighbourhood& around,
                 const std::vector<int>& stage, const std::vector<int>& nodes) {
  const DistanceTable& sites = state.sites();
  std::vector<int> site_at_node;
  for (int site = 0; site < sites.site_count(); ++site) {
    if (sites.node(site) >= static_cast<int>(site_at_node.size()))
      site_at_node.resize(sites.node(site) + 1, -1);
    site_at_node[sites.node(site)] = site;
  }
  std::vector<int> homeless;
  for (int task : stage) {
    if (state.site_of(task) >= 0) continue;
    const int node = nodes.at(task);
    const int site = node >= 0 && node < static_cast<int>(site_at_node.size()) ? site_at_node[node] : -1;
    if (site >= 0 && state.can_take(site))
      state.place(task, site);
    else
      homeless.push_back(task);
  }
  for (int task : homeless) {
    const int anchor = heaviest_placed_partner_site(state, task);
    state.place(task, nearest_with_room(state, around, anchor));
  }
}

void start(StartKind kind, PlacementState& state, const SiteNeighbourhood& around,
           const std::vector<int>& stage, RandomStream& random, const std::vector<int>& given,
           int attempts, double good_enough, Deadline deadline, Deadline retry_deadline) {
  switch (kind) {
    case StartKind::Grow:
      grow_start(state, around, stage, attempts, good_enough, random, deadline, retry_deadline);
      return;
    case StartKind::Heuristic:
      heuristic_start(state, around, stage);
      return;
    case StartKind::BasicHeuristic:
      basic_heuristic_start(state, around, stage);
      return;
    case StartKind::RankOrder:
      rank_order_start(state, stage);
      return;
    case StartKind::Random:
      random_start(state, stage, random);
      return;
    case StartKind::Given:
      given_start(state, around, stage, given);
      return;
  }
}

}  // namespace anneal
}  // namespace tofa
