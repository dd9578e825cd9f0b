// Synthetic communication graphs for tools, benchmarks and tests.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace tofa {

/// Nearest-neighbour stencil on a grid of any dimension (no wrap): every task
/// exchanges `bytes` with each neighbour in each direction (so each undirected
/// edge weighs 2*bytes). Task id = x + X*(y + Y*z), first dimension fastest.
CommGraph stencil_graph(const std::vector<int>& dims, double bytes = 1.0);

/// Chung et al.'s Power Law benchmark: task i has about n*(i+1)^-exponent
/// partners (at least 1), chosen uniformly by a std::mt19937 seeded with
/// `seed`; every pair exchanges `bytes` each way.
CommGraph power_law_graph(int tasks, double exponent = 0.6, double bytes = 1.0,
                          unsigned seed = 1);

/// Chung et al.'s Mesh benchmark: rows x columns tasks (id = row*columns +
/// column); each exchanges `row_bytes` with every task of its row and
/// `column_bytes` with the tasks above and below it.
CommGraph chung_mesh_graph(int rows, int columns, double row_bytes = 4.0,
                           double column_bytes = 1.0);

/// The three data-flow graphs of the NAS Parallel Benchmarks' DT (NPB 3.x).
enum class DtGraph {
  BlackHole,  ///< BH: sources feed comparators of in-degree <= 4, layer by layer, into one sink
  WhiteHole,  ///< WH: BH mirrored: one source fans out to the sinks; ranks numbered from the source
  Shuffle,    ///< SH: sources, log2(sources) - 1 butterfly layers of comparators, sinks
};

/// Bytes one arc of NPB DT class `npb_class` carries: a feature array of
/// NUM_SAMPLES points x 4 doubles (NUM_SAMPLES = 1728 * 8^i for class
/// S, W, A, B, C, D, i = 0..5). The sources' arrays vary by +-STD_DEVIATION
/// points around it; DT's own byte count, like this one, ignores that.
/// Throws Error on another class.
double npb_dt_arc_bytes(char npb_class);

/// NPB DT's graph `kind` of class `npb_class`, task i = DT node i (DT runs
/// node i on MPI rank i), each arc weighing npb_dt_arc_bytes. The class
/// fixes the sources, 4 * 2^i: BH and WH of class C have 85 tasks (64
/// sources, comparator layers of 16 and 4, one sink), class B 43; SH has
/// sources * (log2(sources) + 1) tasks: 192 for class B, 448 for C.
/// Throws Error on an unknown class.
CommGraph npb_dt_graph(DtGraph kind, char npb_class);

/// A 3D halo exchange as a short-range molecular-dynamics code does it
/// (LAMMPS with a brick decomposition), every ghost region sent straight
/// to the task that owns it.
struct HaloExchange {
  std::vector<int> tasks = {4, 4, 4};         ///< P x Q x R tasks, periodic in each dimension
  std::vector<double> box = {1.0, 1.0, 1.0};  ///< extent of the whole domain per dimension
  double cutoff = 0.05;                       ///< ghost shell thickness (the box's units)
  double bytes_per_volume = 1 << 30;          ///< ghost atoms' bytes per unit of volume
  /// Each task's atom density is uniform in [1 - spread, 1 + spread]
  /// (std::mt19937(seed)), scaling what it sends: uneven loads as in a
  /// protein in a membrane.
  double density_spread = 0.0;
  /// Bytes of each step of a recursive-doubling allreduce (task t with
  /// t xor 2^k), the thermodynamic output's reductions; 0 leaves it out.
  double allreduce_bytes = 0.0;
  /// LAMMPS's own forward communication instead of 26 direct messages:
  /// three swaps in x, y, z order, each with the two face neighbours, every
  /// swap forwarding the ghosts received in the earlier ones (edges and
  /// corners travel through faces).
  bool staged = false;
  unsigned seed = 1;
};

/// Task id = x + P*(y + Q*z). With sub-domain sides s = box / tasks and
/// cutoff c, each task sends to each of its 26 neighbours the ghost volume
/// they share times bytes_per_volume times its density: a face c*s_a*s_b,
/// an edge c*c*s_a, a corner c^3. On a dimension of 2 tasks both sides
/// reach the same neighbour and add up; one of 1 task wraps onto itself
/// (no traffic). Staged: the x swap sends c*s_y*s_z to each x neighbour,
/// the y swap c*(s_x+2c)*s_z, the z swap c*(s_x+2c)*(s_y+2c), with the same
/// rules for dimensions of 1 and 2 tasks. Throws Error unless tasks and box have 3 positive entries,
/// 0 < cutoff <= every side and 0 <= density_spread < 1.
CommGraph halo_exchange_graph(const HaloExchange& halo);

/// A pencil-decomposed 3D FFT: rows x columns tasks (id = row*columns +
/// column), each holding `local_bytes` of the grid. A transpose within its
/// row sends local_bytes/columns to every other task of its row, one within
/// its column local_bytes/rows to every other task of its column; nothing
/// else. Throws Error unless rows, columns >= 1 and local_bytes > 0.
CommGraph pencil_fft_graph(int rows, int columns, double local_bytes);

/// A point of the unit cube (x, y, z).
using Point3 = std::array<double, 3>;

/// Each point talks to its `k` nearest others (Euclidean; ties: lower id):
/// the undirected pair {i, j} exists when either is among the other's k
/// nearest and weighs bytes * scale / (scale + distance). Task i is
/// points[i]. Uses a grid of cells, O(n k log k) for evenly spread points.
/// Throws Error unless there are >= 2 points, 1 <= k < points and
/// bytes, scale > 0.
CommGraph nearest_neighbour_graph(const std::vector<Point3>& points, int k, double bytes,
                                  double scale);

/// `tasks` uniform random points of the unit cube (std::mt19937(seed)),
/// numbered in slab order (by z, then y cell of a grid of about one point
/// per cell, then x), so nearby ids are nearby points as in a spatial
/// decomposition; nearest_neighbour_graph with scale = tasks^(-1/3), the
/// mean spacing. Shuffle the ids with with_shuffled_ids for a job whose
/// ranks do not follow the geometry.
CommGraph geometric_graph(int tasks, int k, double bytes, unsigned seed);

// Held-out generators: bench/quality.sh's held-out family is built from
// these (and their seeds) alone; no strategy's constant was tuned on them.

/// A uniformly random `degree`-regular simple graph (Steger and Wormald's
/// pairing: free half-edges of two different tasks not yet joined are
/// paired at random; a dead end restarts), std::mt19937(seed); every edge
/// weighs `bytes` each way. No locality at all: an unstructured mesh's
/// partners without its geometry. Throws Error unless tasks * degree is
/// even and 1 <= degree < tasks.
CommGraph random_regular_graph(int tasks, int degree, double bytes, unsigned seed);

/// Watts and Strogatz's small world: a ring whose task i talks to i +- 1 ..
/// i +- `reach`, offset j weighing bytes / j each way; each of those edges
/// has its far end moved, with probability `rewire`, to a uniform task it
/// is not yet joined to (std::mt19937(seed)), keeping its weight. Ids in
/// ring order. Throws Error unless 1 <= reach, 2 * reach < tasks, 0 <=
/// rewire <= 1 and bytes > 0.
CommGraph small_world_graph(int tasks, int reach, double rewire, double bytes, unsigned seed);

/// The point-to-point pattern of MPI collectives over `tasks` ranks: a
/// binomial-tree broadcast (and reduce) from rank 0 (rank r's parent is r
/// with its highest set bit cleared) with `tree_bytes` per edge each way,
/// plus a ring allgather (r with r + 1 mod tasks) with `ring_bytes`; an
/// edge in both adds up. Throws Error unless tasks >= 2 and both bytes
/// >= 0 with one positive.
CommGraph collectives_graph(int tasks, double tree_bytes, double ring_bytes);

/// R-MAT (Chakrabarti et al., Graph500's Kronecker generator): 2^scale
/// tasks, edge_factor * 2^scale edges, each drawn by descending the
/// adjacency matrix's quadrants with probabilities a, b, c and 1 - a - b - c
/// (std::mt19937(seed)); self loops dropped, repeated edges add up, so
/// weights (multiples of `bytes` each way) and degrees are skewed. Some
/// tasks may have no partner. Throws Error unless 1 <= scale <= 20,
/// edge_factor >= 1, a, b, c >= 0 with a + b + c < 1 and bytes > 0.
CommGraph rmat_graph(int scale, int edge_factor, double a, double b, double c, double bytes,
                     unsigned seed);

/// A stencil on a grid of 1 to 3 dimensions (first dimension fastest, as
/// stencil_graph) where every task exchanges with every neighbour within
/// one step in each coordinate (9 points in 2D, 27 in 3D): `bytes` each way
/// with a face neighbour, bytes * diagonal^(d-1) with one that differs in
/// d coordinates (diagonal = 0: the 5- or 7-point stencil). Periodic: every
/// dimension wraps (a dimension of 2 reaches one neighbour both ways, and
/// the bytes add up; one of 1 has no neighbour). Throws Error unless 1 to 3
/// positive dimensions of at most 2^24 tasks, bytes > 0 and 0 <= diagonal <= 1.
CommGraph box_stencil_graph(const std::vector<int>& dims, double bytes, double diagonal,
                            bool periodic);

/// The same graph with task i renamed to a std::mt19937(seed) shuffle of
/// the ids: what a mapper sees when MPI ranks do not follow the geometry.
CommGraph with_shuffled_ids(const CommGraph& graph, unsigned seed);

/// "stencil:4x4x4[:BYTES]" -> stencil_graph; "geometric:TASKS[:K]" ->
/// geometric_graph(TASKS, K (default 6), 1 byte, seed 7) with ids shuffled
/// (seed 19); "pattern:SPEC" -> pattern_graph(SPEC). Throws Error on a bad
/// spec.
CommGraph graph_from_spec(const std::string& spec);

/// True when `text` names a generated graph rather than a file.
bool is_graph_spec(const std::string& text);

}  // namespace tofa
