#include "congestion_descent.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <random>

#include "faults/faults.hpp"
#include "metrics/metrics.hpp"

namespace tofa {

bool SharedLinkTimes::applies(const MappingRequest& request) {
  return request.fault_cost.link_extra && request.fault_cost.link_extra_bytes > 0;
}

SharedLinkTimes::SharedLinkTimes(const MappingRequest& request) {
  if (!applies(request)) return;
  const FaultCost& cost = request.fault_cost;
  others_ = cost.link_extra;
  bytes_per_unit_ = cost.link_extra_bytes;
  both_ways_ = cost.shared_links;
  if (both_ways_) critical_ = cost.link_criticality;
  if (!any_faulty(request.outage)) return;
  const Topology& topology = *request.topology;
  penalty_factor_ = 1 + cost.penalty;
  std::vector<int> hop;
  for (int node = 0; node < topology.node_count(); ++node) {
    if (!(request.outage[node] > 0)) continue;
    for (int next : topology.neighbours(node)) {
      topology.route_link_ids(node, next, hop);
      penalised_.insert(penalised_.end(), hop.begin(), hop.end());
      topology.route_link_ids(next, node, hop);
      penalised_.insert(penalised_.end(), hop.begin(), hop.end());
    }
  }
  std::sort(penalised_.begin(), penalised_.end());
  penalised_.erase(std::unique(penalised_.begin(), penalised_.end()), penalised_.end());
}

double SharedLinkTimes::time(int link, double own) const {
  own = std::max(own, 0.0);
  const double shared = own + std::min(own, (*others_)[link] * bytes_per_unit_);
  return std::binary_search(penalised_.begin(), penalised_.end(), link) ? shared * penalty_factor_
                                                                          : shared;
}

SharedLinkTimes::Footprint SharedLinkTimes::footprint(const MappingRequest& request,
                                                     const Placement& placement) const {
  Footprint footprint;
  if (empty()) return footprint;
  for (const LinkUse& use : own_loads(request, placement)) {
    footprint.busiest = std::max(footprint.busiest, time(use.link, use.usage) * std::max(use.longest, 1));
    if (protects_others()) footprint.bytes_on_others_links += use.usage * protection(use.link);
  }
  return footprint;
}

std::vector<LinkUse> SharedLinkTimes::own_loads(const MappingRequest& request,
                                                const Placement& placement) const {
  std::vector<LinkUse> uses;
  if (!both_ways_) {
    for (const auto& [link, bytes] : sparse_link_loads(*request.graph, *request.topology, placement))
      uses.push_back({link, bytes, 1, 1});
    return uses;
  }
  const CommGraph& graph = *request.graph;
  std::vector<int> route;
  for (int task = 0; task < graph.task_count(); ++task)
    for (std::int64_t k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      const int from = placement[task], to = placement[graph.adjacency()[k]];
      if (from == to || !(graph.sent(k) > 0)) continue;
      visit_flow(*request.topology, from, to, graph.sent(k), route, [&](int link, double usage, int hops) {
        uses.push_back({link, usage, static_cast<double>(hops) * hops, hops});
      });
    }
  std::sort(uses.begin(), uses.end(), [](const LinkUse& a, const LinkUse& b) { return a.link < b.link; });
  std::size_t kept = 0;
  for (const LinkUse& use : uses)
    if (kept > 0 && uses[kept - 1].link == use.link) {
      uses[kept - 1].usage += use.usage;
      uses[kept - 1].flows += use.flows;
      uses[kept - 1].longest = std::max(uses[kept - 1].longest, use.longest);
    } else {
      uses[kept++] = use;
    }
  uses.resize(kept);
  return uses;
}

namespace {

using Clock = std::chrono::steady_clock;

/// The descent's node- and link-sized tables, kept zeroed per thread: on a
/// 65,536-node torus making them took 20 ms (first touch of their pages)
/// of a 64-task job's 11.5 ms budget.
struct DescentTables {
  std::vector<std::vector<int>> on_node;  // the tasks on each node
  std::vector<double> own;                // the job's use of each link (LinkUse::usage)
  std::vector<double> flows;              // and its flows' squared hops (LinkUse::flows)
  std::vector<double> change;             // a trial's change to them
  std::vector<double> flows_change;
  std::vector<char> touched_mark;

  static DescentTables& for_thread(int nodes, int links) {
    thread_local DescentTables tables;
    if (static_cast<int>(tables.on_node.size()) < nodes) tables.on_node.resize(nodes);
    if (static_cast<int>(tables.own.size()) < links) {
      for (auto* table : {&tables.own, &tables.flows, &tables.change, &tables.flows_change})
        table->resize(links, 0.0);
      tables.touched_mark.resize(links, 0);
    }
    return tables;
  }
};

/// The job's bytes per link, and a trial change to them: the routes of the
/// moved tasks' edges taken out, the tasks moved, their routes added back.
class CongestionSearch {
 public:
  CongestionSearch(const MappingRequest& request, const Placement& start)
      : request_(request),
        topology_(*request.topology),
        graph_(*request.graph),
        times_(request),
        placement_(start),
        slots_(effective_slots(request)),
        candidates_(effective_candidates(request)),
        tables_(DescentTables::for_thread(topology_.node_count(), topology_.link_slot_count())),
        on_node_(tables_.on_node),
        own_(tables_.own),
        flows_(tables_.flows),
        change_(tables_.change),
        flows_change_(tables_.flows_change),
        touched_mark_(tables_.touched_mark) {
    for (int task = 0; task < static_cast<int>(placement_.size()); ++task)
      on_node_[placement_[task]].push_back(task);
    try {
      for (const LinkUse& use : times_.own_loads(request, placement_)) {
        own_[use.link] = use.usage;
        flows_[use.link] = use.flows;
        used_links_.push_back(use.link);
        total_ += term(use.link, use.usage, use.flows);
      }
    } catch (...) {
      zero_tables();
      throw;
    }
  }
  CongestionSearch(const CongestionSearch&) = delete;
  CongestionSearch& operator=(const CongestionSearch&) = delete;
  /// Leaves the thread's tables zeroed.
  ~CongestionSearch() { zero_tables(); }

  Placement run(double seconds) {
    const Clock::time_point deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    auto out_of_time = [&] { return seconds > 0 && Clock::now() >= deadline; };
    std::vector<int> order(placement_.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 random(request_.seed);
    for (bool improved = true; improved;) {
      improved = false;
      std::shuffle(order.begin(), order.end(), random);
      for (int task : order) {
        if (out_of_time()) return placement_;
        if (graph_.offsets()[task] == graph_.offsets()[task + 1]) continue;
        Move best;
        for (std::size_t i = 0; i < candidates_.size(); ++i) {
          if (out_of_time()) return placement_;
          const int node = candidates_[i];
          if (node == placement_[task]) continue;
          if (static_cast<int>(on_node_[node].size()) < slots_) {
            consider(best, Move{task, node, -1});
          } else {
            for (int other : on_node_[node]) consider(best, Move{task, node, other});
          }
        }
        if (best.change < -1e-9 * total_) {
          apply(best);
          improved = true;
        }
      }
    }
    return placement_;
  }

 private:
  struct Move {
    int task = -1;
    int node = -1;
    int swapped = -1;  // the task on `node` that moves to task's node, or -1
    double change = 0;
  };

  void zero_tables() {
    discard_trial();
    for (int node : placement_) on_node_[node].clear();
    for (int link : used_links_) own_[link] = flows_[link] = 0;
  }

  static double square(double x) { return x * x; }
  /// A link's squared time, on TCP links once per flow, weighed by its hops squared.
  double term(int link, double usage, double flows) const {
    const double squared = square(times_.time(link, usage));
    return times_.both_ways() ? std::max(flows, 0.0) * squared : squared;
  }

  /// Not a move that adds bytes on a link the others use, when they are protected.
  void consider(Move& best, Move move) {
    trial(move);
    if (!adds_to_others_links()) {
      move.change = trial_change();
      if (move.change < best.change) best = move;
    }
    discard_trial();
  }

  /// Leaves change_ holding the move's bytes per link; placement_ unchanged.
  void trial(const Move& move) {
    const int from = placement_[move.task];
    add_routes(move, -1);
    placement_[move.task] = move.node;
    if (move.swapped >= 0) placement_[move.swapped] = from;
    add_routes(move, +1);
    placement_[move.task] = from;
    if (move.swapped >= 0) placement_[move.swapped] = move.node;
  }

  /// The routes of every edge of the moved tasks, an edge between them once.
  void add_routes(const Move& move, double sign) {
    for (int task : {move.task, move.swapped}) {
      if (task < 0) continue;
      for (std::int64_t k = graph_.offsets()[task]; k < graph_.offsets()[task + 1]; ++k) {
        const int partner = graph_.adjacency()[k];
        if (partner == move.swapped && task == move.task) continue;  // counted from the other end
        const double bytes = graph_.bytes()[k];
        const int a = placement_[task], b = placement_[partner];
        if (a == b || !(bytes > 0)) continue;
        const double sent = graph_.sent(k);
        add_flow(a, b, sent, sign);
        add_flow(b, a, bytes - sent, sign);
      }
    }
  }

  void add_flow(int from, int to, double bytes, double sign) {
    if (!(bytes > 0)) return;
    times_.visit_flow(topology_, from, to, sign * bytes, route_, [&](int link, double usage, int hops) {
      if (!touched_mark_[link]) {
        touched_mark_[link] = 1;
        touched_.push_back(link);
      }
      change_[link] += usage;
      flows_change_[link] += sign * hops * hops;
    });
  }

  double trial_change() const {
    double change = 0;
    for (int link : touched_)
      change += term(link, own_[link] + change_[link], flows_[link] + flows_change_[link]) -
                term(link, own_[link], flows_[link]);
    return change;
  }

  bool adds_to_others_links() const {
    if (!times_.protects_others()) return false;
    for (int link : touched_)
      if (change_[link] > bytes_tolerance_ && times_.protects(link)) return true;
    return false;
  }

  void discard_trial() {
    for (int link : touched_) {
      change_[link] = 0;
      flows_change_[link] = 0;
      touched_mark_[link] = 0;
    }
    touched_.clear();
  }

  void apply(const Move& move) {
    trial(move);
    total_ += trial_change();
    for (int link : touched_) {
      own_[link] = std::max(0.0, own_[link] + change_[link]);
      flows_[link] = std::max(0.0, flows_[link] + flows_change_[link]);
      used_links_.push_back(link);
    }
    discard_trial();
    const int from = placement_[move.task];
    auto& here = on_node_[from];
    auto& there = on_node_[move.node];
    here.erase(std::find(here.begin(), here.end(), move.task));
    there.push_back(move.task);
    placement_[move.task] = move.node;
    if (move.swapped >= 0) {
      there.erase(std::find(there.begin(), there.end(), move.swapped));
      here.push_back(move.swapped);
      placement_[move.swapped] = from;
    }
  }

  const MappingRequest& request_;
  const Topology& topology_;
  const CommGraph& graph_;
  const SharedLinkTimes times_;
  Placement placement_;
  const int slots_;
  const std::vector<int> candidates_;
  DescentTables& tables_;
  std::vector<std::vector<int>>& on_node_;
  std::vector<double>& own_;
  std::vector<double>& flows_;
  std::vector<double>& change_;
  std::vector<double>& flows_change_;
  std::vector<char>& touched_mark_;
  std::vector<int> used_links_;  // own_ and flows_ entries to zero at the end
  std::vector<int> touched_;
  std::vector<int> route_;
  double total_ = 0;  // sum over links of term()
  const double bytes_tolerance_ = 1e-12 * graph_.total_bytes();
};

}  // namespace

Placement congestion_descent(const MappingRequest& request, const Placement& start,
                             double seconds) {
  if (!SharedLinkTimes::applies(request) || start.empty()) return start;
  return CongestionSearch(request, start).run(seconds);
}

}  // namespace tofa
