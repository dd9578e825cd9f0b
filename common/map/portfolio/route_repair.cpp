#include "route_repair.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

namespace tofa {
namespace {

using Clock = std::chrono::steady_clock;

/// Above this many fault-free candidates the search does not run: it keeps
/// a row of them, 2 bytes each, per node it meets (auto runs it on up to
/// 2^18 tasks x candidates).
constexpr std::size_t kMaxSites = 4096;
/// Steps a moved task stays where it is once the descent is stuck, unless
/// moving it gives the fewest crossings seen: long enough that a task does
/// not return at once, short enough for graphs of a few dozen tasks.
/// Not tuned: the textbook value 7 (Glover's tabu search).
constexpr int kTabuSteps = 7;
/// Stuck steps in a row without a new fewest crossings before it gives up.
/// Not tuned: a bound on futile work when no clear placement is near.
constexpr int kStuckSteps = 200;
/// Occupied sites per task tried for an ejection chain (offer_ejections)
/// in the descent and once it is stuck, and the free sites with the fewest
/// crossings whose hop-bytes are compared for the task it ejects. Tuned on:
/// bench/quality.sh (a) powerlaw-128, 100 repairs of budgeted annealing's
/// placements each (a loaded machine): 8 and 8 sites cleared 90-94 (median
/// 2.3-3.6 ms), 8 and 32 97, 8 and 64 98 (3.0-3.4 ms), 8 and every site 94;
/// 32 in the descent was slower for no more; 4, every free site compared, 88.
constexpr std::size_t kEjectionSites = 8;
constexpr std::size_t kStuckEjectionSites = 64;
constexpr int kEjectionTies = 8;

/// Crossing edges per site: a task has fewer partners than 65,536 (auto
/// runs the search on jobs of up to 2^18 tasks x candidates).
using Count = std::uint16_t;
constexpr std::size_t kLanes = 16;
using Lanes = Count __attribute__((vector_size(kLanes * sizeof(Count))));

/// A task's best move: crossings gained (negative: fewer), then hop-bytes.
struct Move {
  long long crossings = std::numeric_limits<long long>::max();
  double hop_bytes = 0;
  int task = -1;
  int site = -1;
  int swapped = -1;  // the task moved out of the way, -1 for a free slot
  int ejected_to = -1;  // where it goes: a free site, or -1 for the task's old node
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
    applies_ = sites_.size() <= kMaxSites &&
               static_cast<long long>(sites_.size()) * slots_ >= graph_.task_count();
    if (!applies_) return;
    // Tasks only move onto sites, which are fault-free: the start's nodes are all that may fail.
    for (int node : start) failing_[node] = outage_of(request, node) > 0;
    for (int node : sites_) coordinate_index(node);
    occupants_.resize(sites_.size());
    for (int task = 0; task < graph_.task_count(); ++task)
      if (site_of_[node_of_[task]] >= 0) occupants_[site_of_[node_of_[task]]].push_back(task);
    stride_ = (sites_.size() + kLanes - 1) / kLanes * kLanes;
    counts_.resize(stride_);
    counts_other_.resize(stride_);
    partner_.assign(graph_.task_count(), 0);
    tabu_until_.assign(graph_.task_count(), 0);
    crossing_of_.resize(graph_.task_count());
    for (int task = 0; task < graph_.task_count(); ++task)
      crossing_of_[task] = task_crossings(task, node_of_[task]);
  }

  /// False when the fault-free candidates cannot hold the job, or are too many.
  bool applies() const { return applies_; }

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
        const Move move = best_move(task, kEjectionSites);
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
        const Move move = best_move(task, kStuckEjectionSites);
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
  /// row(node)[j]: whether R(node, site j) or R(site j, node) crosses a
  /// faulty link (0 or 1; kLanes-padded, so that rows add up a vector at a time).
  const Count* row(int node) {
    int& index = row_of_[node];
    if (index < 0) {
      index = static_cast<int>(rows_.size() / stride_);
      rows_.resize(rows_.size() + stride_, 0);
      const int at = coordinate_index(node);  // after the sites', which come first
      faults_.crossing_flags(coordinates_.data() + at, coordinates_.data(), sites_.size(),
                             rows_.data() + static_cast<std::size_t>(index) * stride_);
    }
    return rows_.data() + static_cast<std::size_t>(index) * stride_;
  }
  /// counts[j] += row[j] for every site.
  void add_row(Count* counts, const Count* row) const {
    for (std::size_t j = 0; j < stride_; j += kLanes) {
      Lanes sum, add;
      std::memcpy(&sum, counts + j, sizeof sum);
      std::memcpy(&add, row + j, sizeof add);
      sum += add;
      std::memcpy(counts + j, &sum, sizeof sum);
    }
  }
  /// From a row where there is one (rows are made by best_move only, where
  /// the time is checked), else from the two routes.
  bool blocked(int a, int b) {
    if (a == b) return false;
    if (site_of_[b] >= 0 && row_of_[a] >= 0) return row(a)[site_of_[b]] != 0;
    if (site_of_[a] >= 0 && row_of_[b] >= 0) return row(b)[site_of_[a]] != 0;
    const int i = coordinate_index(a), j = coordinate_index(b);  // both before a pointer
    const int* p = coordinates_.data() + i;
    const int* q = coordinates_.data() + j;
    return faults_.faulty_links(p, q) > 0 || faults_.faulty_links(q, p) > 0;
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
  int badness(int task) const { return crossing_of_[task] + failing_[node_of_[task]]; }
  /// Crossing edges, each once, and the tasks on nodes that may fail.
  long long total_crossings() const {
    long long twice = 0, failing = 0;
    for (int task = 0; task < graph_.task_count(); ++task) {
      twice += crossing_of_[task];
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
  Move best_move(int task, std::size_t ejection_sites) {
    const int from = node_of_[task];
    const bool from_site = site_of_[from] >= 0;
    // counts_[j]: the task's crossing edges on site j.
    std::fill(counts_.begin(), counts_.end(), 0);
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (partner == task) continue;
      // A partner's first row costs a route per site: a hub's may add up.
      if (row_of_[node_of_[partner]] < 0 && Clock::now() >= deadline_) return Move{};
      add_row(counts_.data(), row(node_of_[partner]));
    }
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k)
      partner_[graph_.adjacency()[k]] = 1;
    row(from);  // the swaps below ask of routes from there (blocked() reads it)
    const long long current = badness(task);
    // The crossings after each move first; hop-bytes only for the fewest.
    offers_.clear();
    long long fewest = std::numeric_limits<long long>::max();
    auto offer = [&](long long crossings, int site, int swapped, int ejected_to = -1) {
      if (crossings > fewest) return;
      fewest = crossings;
      offers_.push_back({crossings, 0, task, site, swapped, ejected_to});
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
        const long long theirs = task_crossings(other, from, task) -
                                 (crossing_of_[other] - (partner_[other] && blocked(from, to)));
        offer(own + theirs, site, other);
      }
    }
    offer_ejections(task, current, ejection_sites, offer);
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k)
      partner_[graph_.adjacency()[k]] = 0;
    const double current_bytes = hop_bytes(task, from);
    Move best;
    for (Move& move : offers_) {
      if (move.crossings != fewest) continue;
      const int to = sites_[move.site];
      const int other = move.swapped;
      const int other_to = move.ejected_to >= 0 ? sites_[move.ejected_to] : from;
      move.hop_bytes = other < 0 ? hop_bytes(task, to) - current_bytes
                                 : hop_bytes(task, to, other) - hop_bytes(task, from, other) +
                                       hop_bytes(other, other_to, task) - hop_bytes(other, to, task);
      if (move < best) best = move;
    }
    return best;
  }

  /// Ejection chains: the task onto one of the kEjectionSites occupied sites
  /// where its own crossings fall most, the task there onto its best free
  /// site. A stuck descent is mostly a task whose clear sites are taken by
  /// tasks that have no business there (a swap would send them to its node).
  template <typename Offer>
  void offer_ejections(int task, long long current, std::size_t sites, const Offer& offer) {
    const int from = node_of_[task];
    ejection_sites_.clear();
    for (std::size_t j = 0; j < sites_.size(); ++j)
      if (sites_[j] != from && static_cast<int>(occupants_[j].size()) >= slots_)
        ejection_sites_.emplace_back(counts_[j], static_cast<int>(j));
    const std::size_t tried = std::min(ejection_sites_.size(), sites);
    std::partial_sort(ejection_sites_.begin(), ejection_sites_.begin() + tried, ejection_sites_.end());
    for (std::size_t e = 0; e < tried; ++e) {
      const int j = ejection_sites_[e].second;
      const int to = sites_[j];
      const int other = occupants_[j].front();
      const bool partners = partner_[other] != 0;
      const long long own = counts_[j] - (current - (partners && blocked(from, to)));
      if (own >= 0) continue;
      // counts_other_[k]: the other task's crossing edges on site k, the edge to `task` left out.
      std::fill(counts_other_.begin(), counts_other_.end(), 0);
      for (auto k = graph_.offsets()[other]; k < graph_.offsets()[other + 1]; ++k) {
        const int partner = graph_.adjacency()[k];
        if (partner == other || partner == task) continue;
        if (row_of_[node_of_[partner]] < 0 && Clock::now() >= deadline_) return;
        add_row(counts_other_.data(), row(node_of_[partner]));
      }
      // Its free site with the fewest crossings; of the first kEjectionTies
      // such, the one with the fewest hop-bytes.
      long long least = std::numeric_limits<long long>::max();
      int chosen = -1, ties = 0;
      double chosen_bytes = 0;
      for (std::size_t k = 0; k < sites_.size(); ++k) {
        if (static_cast<int>(occupants_[k].size()) >= slots_ || static_cast<int>(k) == j) continue;
        const long long crossings = counts_other_[k] + (partners && blocked(to, sites_[k]));
        if (crossings > least) continue;
        if (crossings < least) least = crossings, ties = 0, chosen = -1;
        if (ties++ >= kEjectionTies) continue;
        const double bytes = hop_bytes(other, sites_[k], task);
        if (chosen < 0 || bytes < chosen_bytes) chosen = static_cast<int>(k), chosen_bytes = bytes;
      }
      const long long theirs_before = crossing_of_[other] - (partners && blocked(from, to));
      if (chosen >= 0) offer(own + least - theirs_before, j, other, chosen);
    }
  }

  void apply(const Move& move) {
    const int from = node_of_[move.task];
    place(move.task, sites_[move.site]);
    if (move.swapped >= 0) place(move.swapped, move.ejected_to >= 0 ? sites_[move.ejected_to] : from);
  }
  /// Moves `task` to `node` and updates the crossings of it and its partners.
  void place(int task, int node) {
    const int old = node_of_[task];
    for (auto k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
      const int partner = graph_.adjacency()[k];
      if (partner == task) continue;
      const int change = blocked(node, node_of_[partner]) - blocked(old, node_of_[partner]);
      crossing_of_[partner] += change;
      crossing_of_[task] += change;
    }
    const int old_site = site_of_[old];
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
  bool applies_ = false;
  Placement node_of_;
  std::vector<int> site_of_;  // node -> index in sites_, -1 when not a fault-free candidate
  std::vector<int> sites_;
  std::size_t stride_ = 0;   // a row's length: the sites rounded up to kLanes
  std::vector<int> row_of_;  // node -> its row's index in rows_, -1 before its first use
  std::vector<Count> rows_;
  std::vector<char> failing_;
  std::vector<int> coordinates_of_;  // node -> index in coordinates_, -1 before its first use
  std::vector<int> coordinates_;
  std::vector<std::vector<int>> occupants_;  // per site
  std::vector<Count> counts_;                // best_move's scratch, per site
  std::vector<char> partner_;                // best_move's scratch, per task
  std::vector<Move> offers_;                 // best_move's scratch
  std::vector<Count> counts_other_;          // offer_ejections' scratch, per site
  std::vector<std::pair<int, int>> ejection_sites_;  // offer_ejections' scratch
  std::vector<int> tabu_until_;              // per task: the step it may move again
  std::vector<int> crossing_of_;             // per task: its crossing edges where it is
  Clock::time_point deadline_;
};

}  // namespace

Placement clear_routes(const MappingRequest& request, const Placement& start, RouteFaults& faults,
                       double seconds) {
  RouteRepair repair(request, start, faults);
  return repair.applies() ? repair.run(seconds) : start;
}

}  // namespace tofa
