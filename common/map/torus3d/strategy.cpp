// torus3d: the placement policy of Slurm 26.05's topology/torus3d plugin
// (26.05.3, src/plugins/topology/torus3d/; doc/man/man5/topology.yaml.5
// "Torus3d definitions", doc/html/topology.shtml#torus3d), re-implemented
// from its description and source (no code copied), as the baseline a site
// with a torus would run instead of tofa.
//
// The policy in Slurm:
// 1. Shapes. The admin lists "placements" per torus in topology.yaml: box
//    dims x,y,z (each 1..torus dim), an optional anchor_spacing (default:
//    the dims) and anchor_seed (default 0,0,0). A shape's anchors are the
//    corners seed + k*spacing on each axis, taken modulo the axis length
//    until the walk returns to the seed (torus3d_record.c:
//    _build_axis_positions); each anchor's box covers dims cells from it and
//    wraps around the torus (_build_anchor_bitmap). Anchors are enumerated x
//    outermost, z innermost (_build_placement_anchors). Shapes are sorted by
//    size (_validate_config, qsort with _placement_cmp). There are no
//    default shapes: a torus without placements is left to Slurm's generic
//    node selection (topology_torus3d.c:topology_p_eval_nodes).
// 2. Size. A job gets exactly as many nodes as a shape holds, or nothing:
//    eval_nodes_torus3d.c:eval_nodes_torus3d refuses a node count that no
//    shape has (ESLURM_REQUESTED_TOPO_CONFIG_UNAVAILABLE, "Requested topology
//    configuration is not available"), one-node jobs included
//    (topology_p_allow_one_node returns false).
// 3. Box. For every shape of that size, every anchor whose cells all hold
//    nodes, all free with CPUs, is a candidate (_check_torus, _check_anchor);
//    its weight is the largest node weight in it. The best candidate
//    (_is_better_candidate): the lower weight; at equal weight and the same
//    shape, the lower fragmentation cost; then the torus with fewer idle
//    nodes; otherwise the one found first.
// 4. Fragmentation. A candidate's cost is the number of anchors of the next
//    larger shape that overlap it and are entirely free (_get_frag_cost):
//    the choice that breaks the fewest free larger boxes wins.
//    topology_p_get_fragmentation (free-box loss summed over all shapes)
//    only scores backfill's time slots (sched/backfill/oracle.c).
// 5. No box. When no candidate is free the job is not placed
//    (_select_placements: ESLURM_TOPO_NO_FIT); Slurm keeps it pending.
//    No fallback to another shape size or to scattered nodes.
// 6. Task order. topology_p_get_rank gives each node a Z-order (Morton)
//    rank: per axis, coordinates relative to the start of a wrap-aware arc
//    covering the job's coordinates, meant to be the shortest
//    (_find_starting_coords, _min_wrap_span; its test keeps a longer linear
//    arc in some cases, reproduced in zorder.cpp; absolute coordinates when
//    the job has the whole torus),
//    bits interleaved x, y, z from the lowest, at most 16 bits in all
//    (_morton_scale, _morton_encode). select/cons_tres/job_test.c ranks
//    every multi-node job this way (unless SelectTypeParameters has
//    CR_NO_DIST_TOPO_BLOCK), and for the default block distribution
//    common/slurm_step_layout.c:_task_layout_topo sorts the nodes by rank
//    (ties by node index), counts tasks per node cyclically over their CPUs,
//    then hands out task ids in blocks in rank order.
// 7. Nothing else: no communication graph, no failure awareness.
//
// Here (MappingRequest): the topology is the torus (1 to 3 dimensions,
// missing ones of length 1; a mesh axis keeps boxes from crossing its edge,
// as an anchor with missing cells is skipped); candidate_nodes are the free
// nodes; the job needs ceil(tasks / slots) nodes, as `-N` of that count
// would ask; outage and the graph's edges are ignored. Shapes come from
// --param shapes=AxBxC[/SXxSYxSZ][@XxYxZ],... (dims, anchor spacing, anchor
// seed); without it, the example shapes of torus3d's documentation, 2x2x1,
// 2x2x2 and 4x4x2, those that fit (the plugin has no defaults and computes
// none). The request has no node weights, so all nodes weigh the same (as
// with no Weight= in slurm.conf): the first shape of the job's size that has
// a free box wins, and within it the free box with the least fragmentation
// cost, the first in anchor order on ties; one topology is one torus. The
// box's nodes take ceil or floor(tasks / nodes) tasks, the extra ones on the
// lowest ranks, task ids in blocks along the Z-order. --param nodes=N asks
// for an allocation of N nodes (`sbatch -N N` then `srun -n TASKS`, how a job
// whose size no shape has runs under torus3d): the box has N nodes, the step
// uses its ceil(tasks / slots) lowest-index nodes, in the allocation's
// Z-order. Where Slurm would
// refuse the job or leave it pending, this throws Error.
#include <algorithm>
#include <exception>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "box_choice.hpp"
#include "shapes.hpp"
#include "strategies.hpp"
#include "zorder.hpp"

namespace tofa {
namespace {

using torus3d::Shape;

std::string shape_list(const std::vector<Shape>& shapes, bool with_size) {
  std::string text;
  for (const Shape& shape : shapes) {
    text += (text.empty() ? "" : ", ") + shape.text();
    if (with_size) text += " = " + std::to_string(shape.size());
  }
  return text;
}

/// The allocation's node count: --param nodes=N (`sbatch -N N`, at least the
/// step's), else the step's own.
long long allocation_nodes(const MappingRequest& request, long long step_nodes) {
  if (request.parameters.count("nodes") == 0) return step_nodes;
  const std::string text = parameter(request, "nodes");
  long long nodes = 0;
  std::size_t used = 0;
  try {
    nodes = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || nodes < step_nodes || nodes > (1LL << 30)) {
    throw Error("torus3d: --param nodes='" + text + "': expected a node count of at least " +
                std::to_string(step_nodes) + " (the nodes the tasks need)");
  }
  return nodes;
}

/// The step's nodes in rank order: Slurm's step takes the allocation's
/// lowest-index nodes (step_mgr.c:_pick_step_nodes) and lays tasks out by the
/// rank the whole allocation got.
std::vector<int> step_order(const std::vector<int>& ranked, std::vector<int> box,
                            long long step_nodes) {
  if (static_cast<long long>(box.size()) == step_nodes) return ranked;
  std::sort(box.begin(), box.end());
  box.resize(step_nodes);
  std::vector<int> order;
  for (int node : ranked)
    if (std::binary_search(box.begin(), box.end(), node)) order.push_back(node);
  return order;
}

class Torus3dMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const Capacity fit = check_capacity(request);
    if (fit.tasks == 0) return {};
    const long long step_nodes = fit.nodes_needed();
    const long long nodes = allocation_nodes(request, step_nodes);
    const torus3d::Grid grid = torus3d::grid_of(*request.topology);

    const bool given = request.parameters.count("shapes") > 0;
    const std::vector<Shape> shapes = torus3d::order_by_size(
        given ? torus3d::parse_shapes(parameter(request, "shapes"), grid)
              : torus3d::default_shapes(grid));
    if (shapes.empty()) {
      throw Error("torus3d: none of the default shapes 2x2x1, 2x2x2, 4x4x2 fits in the " +
                  grid.text() + " topology; give --param shapes=AxBxC,...");
    }
    const std::string need = std::to_string(nodes) + " nodes that " + std::to_string(fit.tasks) +
                             " tasks need at " + std::to_string(fit.slots) + " slots per node";
    std::vector<Shape> sized;
    for (const Shape& shape : shapes)
      if (shape.size() == nodes) sized.push_back(shape);
    if (sized.empty()) {
      throw Error("torus3d: no shape has the " + need + " (shapes tried: " +
                  shape_list(shapes, true) + "; Slurm refuses such a job)");
    }

    std::vector<char> free(grid.node_count(), 0);
    for (int node : fit.candidates) free[node] = 1;
    const torus3d::BoxChoice choice = torus3d::choose_box(grid, shapes, nodes, free);
    if (!choice.found) {
      throw Error("torus3d: no box of shape " + shape_list(sized, false) + " is free for the " +
                  need + ", on the " + grid.text() +
                  " topology (Slurm keeps such a job pending)");
    }

    const std::vector<int> box = torus3d::box_nodes(grid, choice.box);
    const std::vector<int> order = step_order(torus3d::zorder(grid, box), box, step_nodes);
    Placement placement;
    placement.reserve(fit.tasks);
    const int per_node = static_cast<int>(fit.tasks / step_nodes);
    const int extra = static_cast<int>(fit.tasks % step_nodes);
    for (std::size_t i = 0; i < order.size(); ++i)
      placement.insert(placement.end(), per_node + (static_cast<int>(i) < extra ? 1 : 0),
                       order[i]);
    check_placement(request, placement);
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_torus3d_mapper() { return std::make_unique<Torus3dMapper>(); }

}  // namespace tofa
