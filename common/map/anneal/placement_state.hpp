// A (partial) placement of tasks on sites with its load bookkeeping and the
// energy change of a move or swap, computed from the moved tasks' edges only.
#pragma once

#include <vector>

#include "distance_table.hpp"
#include "graph/graph.hpp"
#include "load_bounds.hpp"

namespace tofa {
namespace anneal {

class PlacementState {
 public:
  /// No task placed yet. `graph` and `sites` must outlive the state.
  PlacementState(const CommGraph& graph, const DistanceTable& sites, LoadBounds load);

  const CommGraph& graph() const { return graph_; }
  const DistanceTable& sites() const { return sites_; }
  int task_count() const { return graph_.task_count(); }
  int site_count() const { return sites_.site_count(); }
  const LoadBounds& bounds() const { return bounds_; }

  /// -1 when the task is not placed.
  int site_of(int task) const { return site_of_[task]; }
  int load(int site) const { return static_cast<int>(tasks_on_[site].size()); }
  const std::vector<int>& tasks_on(int site) const { return tasks_on_[site]; }

  /// One more task on `site` keeps the upper bounds of the LoadBounds.
  bool can_take(int site) const;
  /// Moving one task from `from` to `to` keeps the upper bounds and, when
  /// `keep_lowest`, the lower one (partial placements are below it).
  bool can_move(int from, int to, bool keep_lowest) const;

  void place(int task, int site);
  void unplace(int task);
  void move(int task, int site);
  void swap(int a, int b);

  /// Change of F when `task` moves to `site` / when a and b exchange sites.
  /// Edges to unplaced tasks do not count.
  double move_delta(int task, int site) const;
  double swap_delta(int a, int b) const;
  /// F over the edges whose ends are both placed. O(edges).
  double energy() const;

  /// Topology node of every task (-1 for unplaced ones).
  std::vector<int> nodes() const;

 private:
  double pull(int task, int skip, int from, int to) const;

  const CommGraph& graph_;
  const DistanceTable& sites_;
  LoadBounds bounds_;
  int sites_at_highest_ = 0;
  std::vector<int> site_of_;
  std::vector<std::vector<int>> tasks_on_;
};

}  // namespace anneal
}  // namespace tofa
