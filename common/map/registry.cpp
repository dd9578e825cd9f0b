// The strategy registry and the checks every strategy shares.
#include "map/mapper.hpp"

#include <cstdint>
#include <numeric>

#include "baseline/strategies.hpp"

#include "anneal/strategies.hpp"
#include "base/error.hpp"
#include "base/zeroed_scratch.hpp"
#include "compact/strategies.hpp"
#include "embed/strategies.hpp"
#include "mims/strategies.hpp"
#include "portfolio/strategies.hpp"
#include "rubik/strategies.hpp"
#include "scotch/strategies.hpp"
#include "stencil/strategies.hpp"
#include "torus3d/strategies.hpp"

namespace tofa {
namespace {

void check_probability(double p) {
  if (!(p >= 0 && p <= 1))
    throw Error("outage probabilities must be between 0 and 1, got " + std::to_string(p));
}

void check_request(const MappingRequest& request) {
  if (request.graph == nullptr) throw Error("mapping request has no communication graph");
  if (request.topology == nullptr) throw Error("mapping request has no topology");
  check_fault_cost(request.fault_cost);
  if (!request.outage.empty() &&
      request.outage.size() != static_cast<std::size_t>(request.topology->node_count()))
    throw Error("outage has " + std::to_string(request.outage.size()) + " entries, expected " +
                std::to_string(request.topology->node_count()));
  // Every strategy checks its request several times: on a 65,536-node
  // machine a check per entry took 1.5 ms of a 64-task job's 6 ms budget.
  bool all_valid = true;
  for (double p : request.outage) all_valid &= p >= 0 && p <= 1;
  if (!all_valid)
    for (double p : request.outage) check_probability(p);
}

}  // namespace

const std::vector<MapperInfo>& mapper_table() {
  static const std::vector<MapperInfo> table = {
      {"default-slurm",
       "Slurm's block distribution: fill each candidate node in order (ignores outages)",
       make_default_slurm_mapper},
      {"random", "seeded uniform random assignment of tasks to free slots", make_random_mapper},
      {"greedy",
       "heaviest task pairs first, each task as close as possible to its partner (TOFA 5.1)",
       make_greedy_mapper},
      {"tofa",
       "Scotch on the first run of consecutive fault-free nodes, else on the fault-weighted "
       "topology (TOFA Listing 1.1)",
       make_tofa_mapper},
      {"tofa-compact",
       "tofa, but without a fault-free run: Scotch on the fault-free nodes of the shortest "
       "window that has enough of them, with Equation 1 costs",
       make_tofa_compact_mapper},
      {"tofa-packed",
       "Scotch with Equation 1 costs on the ceil(tasks/slots) fault-free candidates nearest "
       "together (a ball around the best of up to 64 seeds)",
       make_tofa_packed_mapper},
      {"compact",
       "the scheduler's node choice: the box of candidates grown from one of 16 corners that "
       "passes the fewest failing nodes, then the smallest; tasks in blocks in its order",
       make_compact_mapper},
      {"greedy-routes",
       "greedy on the fault-free candidates, each task on the nearest node whose routes to its placed partners cross no failing node (P(abort) = 0 where it can)",
       make_greedy_routes_mapper},
      {"stencil-baseline", "stencil job: task i on slot i in candidate order (ALPS/miniGhost mapping, Bunde BASELINE)", make_stencil_baseline_mapper, false},
      {"stencil-grouping", "stencil job: one sub-block of the job per node, e.g. 2x2x4 on 16 slots (Bunde GROUPING)", make_stencil_grouping_mapper, false},
      {"stencil-colmajor", "stencil job: tasks and slots both in column-major order, y fastest (Bunde COLMAJOR)", make_stencil_colmajor_mapper, false},
      {"stencil-rowmajor", "stencil job: tasks and slots both in row-major order, x fastest (Bunde ROWMAJOR)", make_stencil_rowmajor_mapper, false},
      {"stencil-ordered", "stencil job: best of all axis orders and flips by average hops (Bunde ORDERED)", make_stencil_ordered_mapper, false},
      {"stencil-corner", "stencil job: tasks and slots by distance from the (0,0,0) corner (Bunde CORNER)", make_stencil_corner_mapper, false},
      {"stencil-allcorners", "stencil job: corner order taken from the eight corners in turn (Bunde ALLCORNERS)", make_stencil_allcorners_mapper, false},
      {"stencil-overlay", "stencil job: job laid over the allocation, each task to the nearest free slot (Bunde OVERLAY)", make_stencil_overlay_mapper, false},
      {"stencil-twowayoverlay", "stencil job: overlay from both opposite corners alternately (Bunde TWOWAYOVERLAY)", make_stencil_twowayoverlay_mapper, false},
      {"stencil-rcb", "stencil job: recursive coordinate bisection of job and allocation (Bunde RCB)", make_stencil_rcb_mapper, false},
      {"stencil-incimprove", "stencil job: RCB then improving pairwise swaps, bounded (Bunde INCIMPROVE)", make_stencil_incimprove_mapper, false},
      {"anneal",
       "simulated annealing of Bhanot et al.'s free energy F = sum C(i,j) d(i,j) from their "
       "heuristic map; optional recursive-bisection divide and conquer",
       make_anneal_mapper},
      {"embed", "graph embedding (Pivot MDS) then recursive coordinate bisection of tasks and nodes onto ceil(tasks/slots) nodes near the first fault-free candidate; no Scotch, fast at any size", make_embed_mapper},
      {"mims", "MIMS packing (Chung et al.): packs of k = slots tasks minimising the largest inter-node message, placed one per node by --param place=NAME (default tofa)", make_mims_mapper},
      {"auto", "every strategy that applies to the job (Slurm's layout, embed, greedy, greedy-routes, compact and embed and greedy on its box when failing nodes can be avoided, tofa or tofa-compact; tofa-packed and mims on multi-core nodes, stencil-rcb with --param stencil; anneal up to 1024 tasks, local descent above), keeping the lowest bytes x Equation 1 route cost; --param budget=SECONDS bounds it", make_auto_mapper},
      {"rubik", "Rubik partition-tree layout (Bhatele et al.) from --param spec=FILE", make_rubik_mapper, false},
      {"torus3d", "Slurm 26.05 topology/torus3d: one free box of a --param shapes=AxBxC,... shape of exactly ceil(tasks/slots) nodes or --param nodes=N (fewest larger free boxes broken), tasks in wrap-aware Z-order; no graph, no faults", make_torus3d_mapper, false},
  };
  return table;
}

std::unique_ptr<Mapper> make_mapper(const std::string& name) {
  std::string known;
  for (const MapperInfo& info : mapper_table()) {
    if (name == info.name) return info.create();
    known += (known.empty() ? "" : ", ") + std::string(info.name);
  }
  throw Error("unknown strategy '" + name + "': expected one of " + known);
}

std::size_t check_candidates(const MappingRequest& request) {
  check_request(request);
  const int node_count = request.topology->node_count();
  if (request.candidate_nodes.empty()) return node_count;
  struct Seen;
  std::vector<char>& seen = zeroed_scratch<char, Seen>(node_count);
  for (int node : request.candidate_nodes)
    if (node < 0 || node >= node_count)
      throw Error("candidate node " + std::to_string(node) + " is outside 0.." +
                  std::to_string(node_count - 1));
  const ZeroedOnExit<char, std::vector<int>> unmark(seen, request.candidate_nodes);
  for (int node : request.candidate_nodes) {
    if (seen[node]) throw Error("candidate node " + std::to_string(node) + " is listed twice");
    seen[node] = 1;
  }
  return request.candidate_nodes.size();
}

std::vector<int> effective_candidates(const MappingRequest& request) {
  check_candidates(request);
  if (!request.candidate_nodes.empty()) return request.candidate_nodes;
  std::vector<int> all(request.topology->node_count());
  std::iota(all.begin(), all.end(), 0);
  return all;
}

int effective_slots(const MappingRequest& request) {
  if (request.topology == nullptr) throw Error("mapping request has no topology");
  if (request.slots_per_node < 0) {
    throw Error("slots per node must be at least 1 (or 0 for the topology's cores), got " +
                std::to_string(request.slots_per_node));
  }
  return request.slots_per_node > 0 ? request.slots_per_node
                                    : request.topology->cores_per_node();
}

namespace {

void check_room(int tasks, int slots, std::size_t nodes) {
  if (static_cast<std::int64_t>(tasks) >
      static_cast<std::int64_t>(slots) * static_cast<std::int64_t>(nodes)) {
    throw Error(std::to_string(tasks) + " tasks do not fit on " + std::to_string(nodes) +
                " nodes with " + std::to_string(slots) + " slots each");
  }
}

}  // namespace

Capacity check_capacity(const MappingRequest& request) {
  Capacity capacity{effective_candidates(request), effective_slots(request),
                    request.graph->task_count()};
  check_room(capacity.tasks, capacity.slots, capacity.candidates.size());
  return capacity;
}

void check_fits(const MappingRequest& request) {
  const std::size_t nodes = check_candidates(request);
  check_room(request.graph->task_count(), effective_slots(request), nodes);
}

MappingRequest with_candidates(const MappingRequest& request, std::vector<int> candidates) {
  MappingRequest copy;
  copy.graph = request.graph;
  copy.topology = request.topology;
  copy.candidate_nodes = std::move(candidates);
  copy.outage = request.outage;
  copy.slots_per_node = request.slots_per_node;
  copy.seed = request.seed;
  copy.fault_cost = request.fault_cost;
  copy.parameters = request.parameters;
  return copy;
}

void check_placement(const MappingRequest& request, const Placement& placement) {
  const std::vector<int> candidates = effective_candidates(request);
  const int slots = effective_slots(request);
  const int tasks = request.graph->task_count();
  if (placement.size() != static_cast<std::size_t>(tasks)) {
    throw Error("placement has " + std::to_string(placement.size()) + " entries, expected " +
                std::to_string(tasks) + " tasks");
  }
  const int node_count = request.topology->node_count();
  std::vector<char> is_candidate(node_count, 0);
  for (int node : candidates) is_candidate[node] = 1;
  std::vector<int> load(node_count, 0);
  for (int task = 0; task < tasks; ++task) {
    const int node = placement[task];
    if (node < 0 || node >= node_count || !is_candidate[node]) {
      throw Error("task " + std::to_string(task) + " is placed on node " + std::to_string(node) +
                  ", which is not a candidate");
    }
    ++load[node];
  }
  for (int node = 0; node < node_count; ++node) {
    if (load[node] > slots) {
      throw Error("node " + std::to_string(node) + " has " + std::to_string(load[node]) +
                  " tasks, more than its " + std::to_string(slots) + " slots");
    }
  }
}

double outage_of(const MappingRequest& request, int node) {
  if (request.outage.empty()) return 0.0;
  // Strategies ask once per candidate: checking the whole vector here (as
  // effective_candidates does) made placements quadratic in the node count.
  if (request.topology == nullptr) throw Error("mapping request has no topology");
  const int node_count = request.topology->node_count();
  if (request.outage.size() != static_cast<std::size_t>(node_count)) {
    throw Error("outage has " + std::to_string(request.outage.size()) +
                " entries, expected one per node (" + std::to_string(node_count) + ")");
  }
  if (node < 0 || node >= node_count) {
    throw Error("node " + std::to_string(node) + " is outside 0.." +
                std::to_string(node_count - 1));
  }
  check_probability(request.outage[node]);
  return request.outage[node];
}

std::string parameter(const MappingRequest& request, const std::string& key,
                      const std::string& fallback) {
  auto found = request.parameters.find(key);
  return found == request.parameters.end() ? fallback : found->second;
}

}  // namespace tofa
