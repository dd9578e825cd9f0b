#include "route_repair.hpp"

#include <algorithm>
#include <cstdlib>
#include <chrono>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace tofa {
namespace {

using Clock = std::chrono::steady_clock;

/// Above this many fault-free candidates the search does not run: it keeps
/// a row of them per node it meets (16 MiB at most; at 65,536 nodes auto's
/// window for a job of up to 1024 tasks is smaller).
constexpr std::size_t kMaxSites = 4096;
/// Steps a moved task stays where it is once the descent is stuck, unless
/// moving it gives the fewest crossings seen: long enough that a task does
/// not return at once, short enough for graphs of a few dozen tasks.
/// Not tuned: the textbook value 7 (Glover's tabu search).
constexpr int kTabuSteps = 7;
/// Stuck steps in a row without a new fewest crossings before it gives up.
/// Not tuned: a bound on futile work when no clear placement is near.
constexpr int kStuckSteps = 200;

/// A task's best move: crossings gained (negative: fewer), then hop-bytes.
struct Move {
  long long crossings = std::numeric_limits<long long>::max();
  double hop_bytes = 0;
  int task = -1;
  int site = -1;
  int swapped = -1;  // the task moved the other way, -1 for a free slot
  bool operator<(const Move& o) const {
    return crossings != o.crossings ? crossings < o.crossings : hop_bytes < o.hop_bytes;
  }
};

class RouteRepair {
 public:
  RouteRepair(const MappingRequest& request, const Placement& start, RouteFaults& faults)
      : topology_(*request.topology),
        graph_(*request.graph),
        faults_(faults),
        slots_(effective_slots(request)),
        node_of_(start),
        site_of_(topology_.node_count(), -1),
        row_of_(topology_.node_count(), -1),
        failing_(topology_.node_count(), 0),
        coordinates_of_(topology_.node_count(), -1) {
    for (int node : effective_candidates(request))
      if (!(outage_of(request, node) > 0) && site_of_[node] < 0) {
        site_of_[node] = static_cast<int>(sites_.size());
        sites_.push_back(node);
      }
    for (int node = 0; node < topology_.node_count(); ++node) failing_[node] = outage_of(request, node) > 0;
    for (int node : sites_) coordinate_index(node);
    occupants_.resize(sites_.size());
    for (int task = 0; task < graph_.task_count(); ++task)
      if (site_of_[node_of_[task]] >= 0) occupants_[site_of_[node_of_[task]]].push_back(task);
    counts_.resize(sites_.size());
    partner_.assign(graph_.task_count(), 0);
    tabu_until_.assign(graph_.task_count(), 0);
  }

  /// False when the fault-free candidates cannot hold the job, or are too many.
  bool applies() const {
    return sites_.size() <= kMaxSites &&
           static_cast<long long>(sites_.size()) * slots_ >= graph_.task_count();
  }

  Placement run(double seconds) {
    deadline_ = seconds > 0 ? Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(seconds))
                            : Clock::time_point::max();
    long long crossing = total_crossings();
    // Descent: each crossing task, most crossings first, takes its best move while that helps.
    for (bool improved = crossing > 0; improved && crossing > 0;) {
      improved = false;
      for (int task : crossing_tasks()) {
        if (Clock::now() >= deadline_) return node_of_;
        if (badness(task) == 0) continue;
        const Move move = best_move(task);
        if (move.crossings < 0) {
          apply(move);
          crossing += move.crossings;
          improved = true;
        }
      }
    }
    // Stuck: the best move of any crossing task that is not tabu, even one
    // that does not help, keeping the placement with the fewest crossings.
    Placement fewest = node_of_;
    long long fewest_crossing = crossing;
    for (int step = 1, stuck = 0; crossing > 0 && stuck < kStuckSteps; ++step, ++stuck) {
      Move chosen;
      for (int task : crossing_tasks()) {
        if (Clock::now() >= deadline_) return fewest;
        const bool tabu = tabu_until_[task] > step;
        const Move move = best_move(task);
        if (move.task >= 0 && (!tabu || crossing + move.crossings < fewest_crossing) &&
            move < chosen)
          chosen = move;
      }
      if (chosen.task < 0) break;
      apply(chosen);
      crossing += chosen.crossings;
      tabu_until_[chosen.task] = step + kTabuSteps;
      if (chosen.swapped >= 0) tabu_until_[chosen.swapped] = step + kTabuSteps;
      if (crossing < fewest_crossing) {
        fewest_crossing = crossing;
        fewest = node_of_;
        stuck = 0;
      }
    }
    return fewest;
  }

 private:
  /// row(node)[j]: whether R(node, site j) or R(site j, node) crosses a faulty link.
  const std::vector<char>& row(int node) {
    int& index = row_of_[node];
    if (index < 0) {
      index = static_cast<int>(rows_.size());
      rows_.emplace_back(sites_.size());
      std::vector<char>& made = rows_.back();
      const int* at = coordinates_.data() + coordinate_index(node);  // the sites' are all there
      for (std::size_t j = 0; j < sites_.size(); ++j) {
        const int* site = coordinates_.data() + j * topology_.dimension_count();
        made[j] = faults_.faulty_links(at, site) > 0 || faults_.faulty_links(site, at) > 0;
      }
    }
    return rows_[index];
  }
  bool blocked(int a, int b) {
    if (a == b) return false;
    if (site_of_[b] >= 0) return row(a)[site_of_[b]] != 0;
    if (site_of_[a] >= 0) return row(b)[site_of_[a]] != 0;
    return faults_.faulty_links(a, b) > 0 || faults_.faulty_links(b, a) > 0;
  }
  /// Where the node's coordinates start in coordinates_, kept from its
  /// first use (the sites' first, in site order).
  int coordinate_index(int node) {
    int& index = coordinates_of_[node];
    if (index < 0) {
      index = static_cast<int>(coordinates_.size());
      const std::vector<int> found = topology_.coords(node);
      coordinates_.insert(coordinates_.end(), found.begin(), found.end());
    }
    return index;
  }
  int hops(int a, int b) {
    const int i = coordinate_index(a), j = coordinate_index(b);
    const int* p = coordinates_.data() + i;
    const int* q = coordinates_.data() + j;
    int sum = 0;
    for (int d = 0; d < topology_.dimension_count(); ++d) {
      const int apart = std::abs(p[d] - q[d]);
      sum += topology_.wrap()[d] ? std::min(apart, topology_.dims()[d] - apart) : apart;
    }
    return sum;
  }

  /// Edges of `task`, on `node`, whose routes cross a faulty link; the
  /// edge to `skipped` left out.
  int task_crossings(int task, int node, int skipped = -1) {
    int count = 0;
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (partner != task && partner != skipped) count += blocked(node, node_of_[partner]);
    }
    return count;
  }
  double hop_bytes(int task, int node, int skipped = -1) {
    double sum = 0;
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (partner != task && partner != skipped)
        sum += graph_.bytes()[k] * hops(node, node_of_[partner]);
    }
    return sum;
  }
  /// Its crossing edges, and 1 when its node may fail.
  int badness(int task) { return task_crossings(task, node_of_[task]) + failing_[node_of_[task]]; }
  /// Crossing edges, each once, and the tasks on nodes that may fail.
  long long total_crossings() {
    long long twice = 0, failing = 0;
    for (int task = 0; task < graph_.task_count(); ++task) {
      twice += task_crossings(task, node_of_[task]);
      failing += failing_[node_of_[task]];
    }
    return twice / 2 + failing;
  }
  /// Tasks on a crossing edge or a node that may fail, most crossings first.
  std::vector<int> crossing_tasks() {
    std::vector<std::pair<int, int>> found;
    for (int task = 0; task < graph_.task_count(); ++task) {
      const int count = badness(task);
      if (count > 0) found.emplace_back(-count, task);
    }
    std::sort(found.begin(), found.end());
    std::vector<int> tasks;
    for (const auto& entry : found) tasks.push_back(entry.second);
    return tasks;
  }

  /// The move or swap of `task` onto a fault-free candidate with the fewest
  /// crossings after it, ties to the fewest hop-bytes.
  Move best_move(int task) {
    const int from = node_of_[task];
    const bool from_site = site_of_[from] >= 0;
    // counts_[j]: the task's crossing edges on site j.
    std::fill(counts_.begin(), counts_.end(), 0);
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (partner == task) continue;
      // A partner's first row costs a route per site: a hub's may add up.
      if (row_of_[node_of_[partner]] < 0 && Clock::now() >= deadline_) return Move{};
      const std::vector<char>& partner_row = row(node_of_[partner]);
      for (std::size_t j = 0; j < sites_.size(); ++j) counts_[j] += partner_row[j];
    }
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k)
      partner_[graph_.adjacency()[k]] = 1;
    const long long current = task_crossings(task, from) + failing_[from];
    // The crossings after each move first; hop-bytes only for the fewest.
    offers_.clear();
    long long fewest = std::numeric_limits<long long>::max();
    auto offer = [&](long long crossings, int site, int swapped) {
      if (crossings > fewest) return;
      fewest = crossings;
      offers_.push_back({crossings, 0, task, site, swapped});
    };
    for (std::size_t j = 0; j < sites_.size(); ++j) {
      const int to = sites_[j];
      if (to == from) continue;
      const int site = static_cast<int>(j);
      if (static_cast<int>(occupants_[j].size()) < slots_) offer(counts_[j] - current, site, -1);
      if (!from_site) continue;  // a task swapped there would sit off the fault-free candidates
      for (int other : occupants_[j]) {
        // The edge between the two keeps its routes; counts_[j] saw it on one node.
        const long long own = counts_[j] - (current - (partner_[other] && blocked(from, to)));
        const long long theirs =
            task_crossings(other, from, task) - task_crossings(other, to, task);
        offer(own + theirs, site, other);
      }
    }
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k)
      partner_[graph_.adjacency()[k]] = 0;
    const double current_bytes = hop_bytes(task, from);
    Move best;
    for (Move& move : offers_) {
      if (move.crossings != fewest) continue;
      const int to = sites_[move.site];
      const int other = move.swapped;
      move.hop_bytes = other < 0 ? hop_bytes(task, to) - current_bytes
                                 : hop_bytes(task, to, other) - hop_bytes(task, from, other) +
                                       hop_bytes(other, from, task) - hop_bytes(other, to, task);
      if (move < best) best = move;
    }
    return best;
  }

  void apply(const Move& move) {
    const int from = node_of_[move.task];
    place(move.task, sites_[move.site]);
    if (move.swapped >= 0) place(move.swapped, from);
  }
  void place(int task, int node) {
    const int old_site = site_of_[node_of_[task]];
    if (old_site >= 0) {
      std::vector<int>& there = occupants_[old_site];
      there.erase(std::find(there.begin(), there.end(), task));
    }
    node_of_[task] = node;
    occupants_[site_of_[node]].push_back(task);
  }

  const Topology& topology_;
  const CommGraph& graph_;
  RouteFaults& faults_;
  const int slots_;
  Placement node_of_;
  std::vector<int> site_of_;  // node -> index in sites_, -1 when not a fault-free candidate
  std::vector<int> sites_;
  std::vector<int> row_of_;  // node -> index in rows_, -1 before its first use
  std::vector<std::vector<char>> rows_;
  std::vector<char> failing_;
  std::vector<int> coordinates_of_;  // node -> index in coordinates_, -1 before its first use
  std::vector<int> coordinates_;
  std::vector<std::vector<int>> occupants_;  // per site
  std::vector<int> counts_;                  // best_move's scratch, per site
  std::vector<char> partner_;                // best_move's scratch, per task
  std::vector<Move> offers_;                 // best_move's scratch
  std::vector<int> tabu_until_;              // per task: the step it may move again
  Clock::time_point deadline_;
};

}  // namespace

Placement clear_routes(const MappingRequest& request, const Placement& start, RouteFaults& faults,
                       double seconds) {
  RouteRepair repair(request, start, faults);
  return repair.applies() ? repair.run(seconds) : start;
}

}  // namespace tofa
