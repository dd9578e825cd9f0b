#include "placement_state.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace tofa {
namespace anneal {

PlacementState::PlacementState(const CommGraph& graph, const DistanceTable& sites,
                               LoadBounds load)
    : graph_(graph), sites_(sites), bounds_(load), site_of_(graph.task_count(), -1),
      tasks_on_(sites.site_count()) {}

bool PlacementState::can_take(int site) const {
  const int after = load(site) + 1;
  if (after > bounds_.highest) return false;
  return after < bounds_.highest || sites_at_highest_ < bounds_.highest_sites;
}

bool PlacementState::can_move(int from, int to, bool keep_lowest) const {
  if (from == to) return false;
  if (keep_lowest && load(from) - 1 < bounds_.lowest) return false;
  const int after = load(to) + 1;
  if (after > bounds_.highest) return false;
  const int change = (after == bounds_.highest) - (load(from) == bounds_.highest);
  return sites_at_highest_ + change <= bounds_.highest_sites;
}

void PlacementState::place(int task, int site) {
  if (site_of_[task] >= 0) throw Error("task " + std::to_string(task) + " is already placed");
  tasks_on_[site].push_back(task);
  site_of_[task] = site;
  if (load(site) == bounds_.highest) ++sites_at_highest_;
}

void PlacementState::unplace(int task) {
  const int site = site_of_[task];
  if (site < 0) return;
  if (load(site) == bounds_.highest) --sites_at_highest_;
  auto& list = tasks_on_[site];
  list.erase(std::find(list.begin(), list.end(), task));
  site_of_[task] = -1;
}

void PlacementState::move(int task, int site) {
  unplace(task);
  place(task, site);
}

void PlacementState::swap(int a, int b) {
  const int site_a = site_of_[a];
  const int site_b = site_of_[b];
  *std::find(tasks_on_[site_a].begin(), tasks_on_[site_a].end(), a) = b;
  *std::find(tasks_on_[site_b].begin(), tasks_on_[site_b].end(), b) = a;
  site_of_[a] = site_b;
  site_of_[b] = site_a;
}

/// Change of `task`'s edge energy when it goes from site `from` to `to`,
/// leaving out the edge to `skip` (the swap partner, whose distance stays).
double PlacementState::pull(int task, int skip, int from, int to) const {
  double delta = 0;
  const auto begin = graph_.offsets()[task];
  const auto end = graph_.offsets()[task + 1];
  for (auto k = begin; k < end; ++k) {
    const int partner = graph_.adjacency()[k];
    const int there = site_of_[partner];
    if (there < 0 || partner == skip) continue;
    delta += graph_.bytes()[k] * (sites_.distance(to, there) - sites_.distance(from, there));
  }
  return delta;
}

double PlacementState::move_delta(int task, int site) const {
  return pull(task, -1, site_of_[task], site);
}

double PlacementState::swap_delta(int a, int b) const {
  const int site_a = site_of_[a];
  const int site_b = site_of_[b];
  return pull(a, b, site_a, site_b) + pull(b, a, site_b, site_a);
}

double PlacementState::energy() const {
  double total = 0;
  for (int task = 0; task < task_count(); ++task) {
    if (site_of_[task] < 0) continue;
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (partner > task && site_of_[partner] >= 0)
        total += graph_.bytes()[k] * sites_.distance(site_of_[task], site_of_[partner]);
    }
  }
  return total;
}

std::vector<int> PlacementState::nodes() const {
  std::vector<int> result(task_count(), -1);
  for (int task = 0; task < task_count(); ++task)
    if (site_of_[task] >= 0) result[task] = sites_.node(site_of_[task]);
  return result;
}

}  // namespace anneal
}  // namespace tofa
