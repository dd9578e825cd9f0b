#include "graph/generators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "base/error.hpp"
#include "graph/patterns/patterns.hpp"

namespace tofa {

CommGraph stencil_graph(const std::vector<int>& dims, double bytes) {
  long long tasks = 1;
  for (int size : dims) {
    if (size < 1) throw Error("stencil dimensions must be positive");
    tasks *= size;
  }
  if (dims.empty() || tasks > (1 << 24)) throw Error("stencil must have 1 to 2^24 tasks");
  std::vector<CommEdge> edges;
  std::vector<int> coord(dims.size(), 0);
  for (int task = 0; task < tasks; ++task) {
    int stride = 1;
    for (std::size_t d = 0; d < dims.size(); ++d) {
      if (coord[d] + 1 < dims[d]) {
        edges.push_back({task, task + stride, bytes, 1});
        edges.push_back({task + stride, task, bytes, 1});
      }
      stride *= dims[d];
    }
    for (std::size_t d = 0; d < dims.size() && ++coord[d] == dims[d]; ++d) coord[d] = 0;
  }
  return CommGraph::from_directed_edges(static_cast<int>(tasks), edges);
}

CommGraph with_shuffled_ids(const CommGraph& graph, unsigned seed) {
  std::vector<int> rename(graph.task_count());
  for (int task = 0; task < graph.task_count(); ++task) rename[task] = task;
  std::shuffle(rename.begin(), rename.end(), std::mt19937(seed));
  std::vector<CommEdge> edges;
  for (const CommEdge& edge : graph.undirected_edges())
    edges.push_back({rename[edge.from], rename[edge.to], edge.bytes, edge.messages});
  return CommGraph::from_directed_edges(graph.task_count(), edges);
}

CommGraph power_law_graph(int tasks, double exponent, double bytes, unsigned seed) {
  if (tasks < 2) throw Error("a power-law graph needs at least 2 tasks");
  std::mt19937 engine(seed);
  std::uniform_int_distribution<int> pick(0, tasks - 1);
  std::vector<CommEdge> edges;
  for (int task = 0; task < tasks; ++task) {
    const int degree = std::clamp(
        static_cast<int>(std::lround(tasks * std::pow(task + 1.0, -exponent))), 1, tasks - 1);
    for (int k = 0; k < degree; ++k) {
      int partner = pick(engine);
      if (partner == task) partner = (partner + 1) % tasks;
      edges.push_back({task, partner, bytes, 1});
      edges.push_back({partner, task, bytes, 1});
    }
  }
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph chung_mesh_graph(int rows, int columns, double row_bytes, double column_bytes) {
  if (rows < 1 || columns < 1) throw Error("a mesh graph needs positive rows and columns");
  std::vector<CommEdge> edges;
  auto id = [columns](int row, int column) { return row * columns + column; };
  for (int row = 0; row < rows; ++row)
    for (int column = 0; column < columns; ++column) {
      for (int other = 0; other < columns; ++other)
        if (other != column) edges.push_back({id(row, column), id(row, other), row_bytes, 1});
      for (int next : {row - 1, row + 1})
        if (next >= 0 && next < rows)
          edges.push_back({id(row, column), id(next, column), column_bytes, 1});
    }
  return CommGraph::from_directed_edges(rows * columns, edges);
}

namespace {

/// Position of `npb_class` in NPB DT's class ladder S, W, A, B, C, D.
int npb_dt_class_index(char npb_class) {
  static const std::string classes = "SWABCD";
  const std::size_t index = classes.find(npb_class);
  if (index == std::string::npos)
    throw Error(std::string("unknown NPB DT class '") + npb_class +
                "': expected S, W, A, B, C or D");
  return static_cast<int>(index);
}

/// DT's arcs, tail -> head, of its black hole: the sources, then each layer
/// of comparators (comparator i takes the previous layer's nodes 4i..4i+3),
/// then the sink fed by the last layer.
std::vector<std::pair<int, int>> black_hole_arcs(int sources) {
  constexpr int kMaxInDegree = 4;
  std::vector<std::pair<int, int>> arcs;
  std::vector<int> layer(sources);
  for (int i = 0; i < sources; ++i) layer[i] = i;
  int next_id = sources;
  while (static_cast<int>(layer.size()) > kMaxInDegree) {
    std::vector<int> comparators;
    for (std::size_t first = 0; first < layer.size(); first += kMaxInDegree) {
      const int comparator = next_id++;
      const std::size_t last = std::min(layer.size(), first + kMaxInDegree);
      for (std::size_t k = first; k < last; ++k) arcs.push_back({layer[k], comparator});
      comparators.push_back(comparator);
    }
    layer = std::move(comparators);
  }
  const int sink = next_id;
  for (int node : layer) arcs.push_back({node, sink});
  return arcs;
}

/// DT's shuffle: layer 0 holds the sources, layer L + 1 the sinks, each
/// `sources` wide; node i of layer j + 1 takes nodes i and i xor 2^j of
/// layer j (a butterfly over the bits of i).
std::vector<std::pair<int, int>> shuffle_arcs(int sources) {
  int layers = 0;
  while ((2 << layers) < sources) ++layers;  // log2(sources) - 1 comparator layers
  std::vector<std::pair<int, int>> arcs;
  for (int j = 0; j <= layers; ++j)
    for (int i = 0; i < sources; ++i) {
      const int head = (j + 1) * sources + i;
      arcs.push_back({j * sources + i, head});
      arcs.push_back({j * sources + (i ^ (1 << j)), head});
    }
  return arcs;
}

int task_count_of(const std::vector<std::pair<int, int>>& arcs) {
  int highest = 0;
  for (const auto& [tail, head] : arcs) highest = std::max({highest, tail, head});
  return highest + 1;
}

}  // namespace

double npb_dt_arc_bytes(char npb_class) {
  constexpr double kSamplesOfClassS = 1728;
  constexpr double kDoublesPerSample = 4;
  return kSamplesOfClassS * std::pow(8.0, npb_dt_class_index(npb_class)) * kDoublesPerSample *
         sizeof(double);
}

CommGraph npb_dt_graph(DtGraph kind, char npb_class) {
  const int sources = 4 << npb_dt_class_index(npb_class);
  const double bytes = npb_dt_arc_bytes(npb_class);
  std::vector<std::pair<int, int>> arcs =
      kind == DtGraph::Shuffle ? shuffle_arcs(sources) : black_hole_arcs(sources);
  const int tasks = task_count_of(arcs);
  std::vector<CommEdge> edges;
  for (const auto& [tail, head] : arcs) {
    if (kind == DtGraph::WhiteHole)  // every arc reversed, ids counted from the source
      edges.push_back({tasks - 1 - head, tasks - 1 - tail, bytes, 1});
    else
      edges.push_back({tail, head, bytes, 1});
  }
  return CommGraph::from_directed_edges(tasks, edges);
}

namespace {

void check_halo(const HaloExchange& halo) {
  if (halo.tasks.size() != 3 || halo.box.size() != 3)
    throw Error("a halo exchange needs 3 task counts and 3 box extents");
  for (int d = 0; d < 3; ++d) {
    if (halo.tasks[d] < 1 || !(halo.box[d] > 0))
      throw Error("halo exchange task counts and box extents must be positive");
    if (!(halo.cutoff > 0) || halo.cutoff > halo.box[d] / halo.tasks[d])
      throw Error("halo exchange cutoff must be positive and at most every sub-domain side");
  }
  if (!(halo.density_spread >= 0 && halo.density_spread < 1))
    throw Error("halo exchange density spread must be in [0, 1)");
  if (!(halo.bytes_per_volume > 0) || !(halo.allreduce_bytes >= 0))
    throw Error("halo exchange bytes per volume must be positive, allreduce bytes not negative");
}

/// Ghost volume shared with the neighbour at `offset` (entries -1, 0, +1):
/// the cutoff across every dimension that differs, the sub-domain side
/// along every one that does not.
double ghost_volume(const HaloExchange& halo, const std::array<int, 3>& offset) {
  double volume = 1;
  for (int d = 0; d < 3; ++d)
    volume *= offset[d] != 0 ? halo.cutoff : halo.box[d] / halo.tasks[d];
  return volume;
}

/// The slab a staged swap along the one moved axis sends: the axes swapped
/// before it carry their ghosts (+2c), those after it do not.
double staged_ghost_volume(const HaloExchange& halo, const std::array<int, 3>& offset) {
  const int axis = offset[0] != 0 ? 0 : offset[1] != 0 ? 1 : 2;
  double volume = halo.cutoff;
  for (int d = 0; d < 3; ++d)
    if (d != axis) volume *= halo.box[d] / halo.tasks[d] + (d < axis ? 2 * halo.cutoff : 0.0);
  return volume;
}

}  // namespace

CommGraph halo_exchange_graph(const HaloExchange& halo) {
  check_halo(halo);
  const std::vector<int>& n = halo.tasks;
  const int tasks = n[0] * n[1] * n[2];
  std::mt19937 engine(halo.seed);
  std::uniform_real_distribution<double> density(1 - halo.density_spread,
                                                 1 + halo.density_spread);
  std::vector<CommEdge> edges;
  for (int task = 0; task < tasks; ++task) {
    const int x = task % n[0], y = task / n[0] % n[1], z = task / (n[0] * n[1]);
    const double sent_per_volume = halo.bytes_per_volume * density(engine);
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int moved = (dx != 0) + (dy != 0) + (dz != 0);
          if (moved == 0 || (halo.staged && moved > 1)) continue;
          const int neighbour = (x + dx + n[0]) % n[0] +
                                n[0] * ((y + dy + n[1]) % n[1] + n[1] * ((z + dz + n[2]) % n[2]));
          const double volume = halo.staged ? staged_ghost_volume(halo, {dx, dy, dz})
                                            : ghost_volume(halo, {dx, dy, dz});
          edges.push_back({task, neighbour, sent_per_volume * volume, 1});
        }
    for (int step = 1; halo.allreduce_bytes > 0 && step < tasks; step <<= 1)
      if ((task ^ step) < tasks) edges.push_back({task, task ^ step, halo.allreduce_bytes, 1});
  }
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph pencil_fft_graph(int rows, int columns, double local_bytes) {
  if (rows < 1 || columns < 1 || !(local_bytes > 0))
    throw Error("a pencil FFT needs positive rows, columns and bytes");
  std::vector<CommEdge> edges;
  for (int row = 0; row < rows; ++row)
    for (int column = 0; column < columns; ++column) {
      const int task = row * columns + column;
      for (int other = 0; other < columns; ++other)
        if (other != column)
          edges.push_back({task, row * columns + other, local_bytes / columns, 1});
      for (int other = 0; other < rows; ++other)
        if (other != row) edges.push_back({task, other * columns + column, local_bytes / rows, 1});
    }
  return CommGraph::from_directed_edges(rows * columns, edges);
}

namespace {

double distance(const Point3& a, const Point3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

/// The points bucketed into side^3 cubic cells over their bounding box.
class CellGrid {
 public:
  CellGrid(const std::vector<Point3>& points, int side) : side_(side), cells_(side * side * side) {
    for (int d = 0; d < 3; ++d) {
      low_[d] = high_[d] = points.front()[d];
      for (const Point3& p : points) {
        low_[d] = std::min(low_[d], p[d]);
        high_[d] = std::max(high_[d], p[d]);
      }
      width_ = std::max(width_, (high_[d] - low_[d]) / side);
    }
    if (!(width_ > 0)) width_ = 1;
    for (std::size_t i = 0; i < points.size(); ++i)
      cells_[cell_index(cell_of(points[i]))].push_back(static_cast<int>(i));
  }

  std::array<int, 3> cell_of(const Point3& p) const {
    std::array<int, 3> cell{};
    for (int d = 0; d < 3; ++d)
      cell[d] = std::clamp(static_cast<int>((p[d] - low_[d]) / width_), 0, side_ - 1);
    return cell;
  }
  /// Calls visit(point id) for every point in cells at Chebyshev distance
  /// exactly `ring` from `center`.
  template <typename Visit>
  void for_each_in_ring(const std::array<int, 3>& center, int ring, Visit visit) const {
    for (int z = center[2] - ring; z <= center[2] + ring; ++z)
      for (int y = center[1] - ring; y <= center[1] + ring; ++y)
        for (int x = center[0] - ring; x <= center[0] + ring; ++x) {
          const std::array<int, 3> cell{x, y, z};
          bool inside = true, on_ring = false;
          for (int d = 0; d < 3; ++d) {
            inside = inside && cell[d] >= 0 && cell[d] < side_;
            on_ring = on_ring || std::abs(cell[d] - center[d]) == ring;
          }
          if (inside && on_ring)
            for (int id : cells_[cell_index(cell)]) visit(id);
        }
  }
  int side() const { return side_; }
  double width() const { return width_; }

 private:
  int cell_index(const std::array<int, 3>& cell) const {
    return cell[0] + side_ * (cell[1] + side_ * cell[2]);
  }
  int side_;
  double width_ = 0;
  Point3 low_{}, high_{};
  std::vector<std::vector<int>> cells_;
};

/// The k points nearest to points[self] (ties: lower id). Rings of cells
/// are searched outwards until every unseen point is farther than the
/// k-th found: a point beyond ring r is at least r cell widths away.
std::vector<int> k_nearest(const std::vector<Point3>& points, const CellGrid& grid, int self,
                           int k) {
  using Candidate = std::pair<double, int>;  // (distance, id): a max-heap keeps the k best
  std::vector<Candidate> best;
  const std::array<int, 3> center = grid.cell_of(points[self]);
  for (int ring = 0; ring <= grid.side(); ++ring) {
    if (static_cast<int>(best.size()) == k && best.front().first <= (ring - 1) * grid.width())
      break;
    grid.for_each_in_ring(center, ring, [&](int id) {
      if (id == self) return;
      const Candidate candidate{distance(points[self], points[id]), id};
      if (static_cast<int>(best.size()) < k) {
        best.push_back(candidate);
        std::push_heap(best.begin(), best.end());
      } else if (candidate < best.front()) {
        std::pop_heap(best.begin(), best.end());
        best.back() = candidate;
        std::push_heap(best.begin(), best.end());
      }
    });
  }
  std::vector<int> ids;
  for (const Candidate& candidate : best) ids.push_back(candidate.second);
  return ids;
}

}  // namespace

CommGraph nearest_neighbour_graph(const std::vector<Point3>& points, int k, double bytes,
                                  double scale) {
  const int tasks = static_cast<int>(points.size());
  if (tasks < 2 || k < 1 || k >= tasks || !(bytes > 0) || !(scale > 0))
    throw Error("a nearest-neighbour graph needs 2 or more points, 1 <= k < points and "
                "positive bytes and scale");
  const CellGrid grid(points, std::max(1, static_cast<int>(std::cbrt(tasks / 2.0))));
  std::vector<std::pair<int, int>> pairs;
  for (int task = 0; task < tasks; ++task)
    for (int other : k_nearest(points, grid, task, k))
      pairs.push_back({std::min(task, other), std::max(task, other)});
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::vector<CommEdge> edges;
  for (const auto& [a, b] : pairs)
    edges.push_back({a, b, bytes * scale / (scale + distance(points[a], points[b])), 1});
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph geometric_graph(int tasks, int k, double bytes, unsigned seed) {
  if (tasks < 2) throw Error("a geometric graph needs at least 2 tasks");
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> coordinate(0.0, 1.0);
  std::vector<Point3> points(tasks);
  for (Point3& p : points)
    for (double& c : p) c = coordinate(engine);
  const int side = static_cast<int>(std::ceil(std::cbrt(tasks)));
  auto slab_key = [side](const Point3& p) {
    return std::make_tuple(static_cast<int>(p[2] * side), static_cast<int>(p[1] * side), p[0]);
  };
  std::sort(points.begin(), points.end(),
            [&](const Point3& a, const Point3& b) { return slab_key(a) < slab_key(b); });
  return nearest_neighbour_graph(points, k, bytes, std::pow(tasks, -1.0 / 3));
}

namespace {

std::pair<int, int> ordered(int a, int b) { return {std::min(a, b), std::max(a, b)}; }

/// Both directions of {a, b}, `bytes` each way.
void add_both_ways(std::vector<CommEdge>& edges, int a, int b, double bytes) {
  edges.push_back({a, b, bytes, 1});
  edges.push_back({b, a, bytes, 1});
}

/// One pairing attempt of random_regular_graph: false at a dead end (the
/// free half-edges left belong to one task, or to tasks already joined).
bool pair_half_edges(int tasks, int degree, std::mt19937& engine,
                     std::set<std::pair<int, int>>& joined) {
  std::vector<int> free_ends;
  for (int task = 0; task < tasks; ++task) free_ends.insert(free_ends.end(), degree, task);
  joined.clear();
  auto take = [&](std::size_t i, std::size_t j) {
    joined.insert(ordered(free_ends[i], free_ends[j]));
    for (std::size_t k : {std::max(i, j), std::min(i, j)}) {
      free_ends[k] = free_ends.back();
      free_ends.pop_back();
    }
  };
  auto suitable = [&](std::size_t i, std::size_t j) {
    return free_ends[i] != free_ends[j] && !joined.count(ordered(free_ends[i], free_ends[j]));
  };
  constexpr int kRandomTries = 64;  // then every pair is looked at
  while (!free_ends.empty()) {
    std::uniform_int_distribution<std::size_t> pick(0, free_ends.size() - 1);
    bool paired = false;
    for (int attempt = 0; attempt < kRandomTries && !paired; ++attempt) {
      const std::size_t i = pick(engine), j = pick(engine);
      if (suitable(i, j)) {
        take(i, j);
        paired = true;
      }
    }
    for (std::size_t i = 0; i < free_ends.size() && !paired; ++i)
      for (std::size_t j = i + 1; j < free_ends.size() && !paired; ++j)
        if (suitable(i, j)) {
          take(i, j);
          paired = true;
        }
    if (!paired) return false;
  }
  return true;
}

}  // namespace

CommGraph random_regular_graph(int tasks, int degree, double bytes, unsigned seed) {
  if (degree < 1 || degree >= tasks || (static_cast<long long>(tasks) * degree) % 2 != 0 ||
      !(bytes > 0))
    throw Error("a random regular graph needs 1 <= degree < tasks, tasks * degree even and "
                "positive bytes");
  std::mt19937 engine(seed);
  std::set<std::pair<int, int>> joined;
  while (!pair_half_edges(tasks, degree, engine, joined)) {
  }
  std::vector<CommEdge> edges;
  for (const auto& [a, b] : joined) add_both_ways(edges, a, b, bytes);
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph small_world_graph(int tasks, int reach, double rewire, double bytes, unsigned seed) {
  if (reach < 1 || 2LL * reach >= tasks || !(rewire >= 0 && rewire <= 1) || !(bytes > 0))
    throw Error("a small-world graph needs 1 <= reach, 2 * reach < tasks, rewire in [0, 1] and "
                "positive bytes");
  struct Link {
    int from, to;
    double bytes;
  };
  std::vector<Link> links;
  std::set<std::pair<int, int>> joined;
  for (int offset = 1; offset <= reach; ++offset)  // lap by lap, as Watts and Strogatz
    for (int task = 0; task < tasks; ++task) {
      links.push_back({task, (task + offset) % tasks, bytes / offset});
      joined.insert(ordered(task, (task + offset) % tasks));
    }
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_int_distribution<int> pick(0, tasks - 1);
  for (Link& link : links) {
    if (!(unit(engine) < rewire)) continue;
    // A task joined to every other keeps its link.
    for (int attempt = 0; attempt < 4 * tasks; ++attempt) {
      const int to = pick(engine);
      if (to == link.from || joined.count(ordered(link.from, to))) continue;
      joined.erase(ordered(link.from, link.to));
      joined.insert(ordered(link.from, to));
      link.to = to;
      break;
    }
  }
  std::vector<CommEdge> edges;
  for (const Link& link : links) add_both_ways(edges, link.from, link.to, link.bytes);
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph collectives_graph(int tasks, double tree_bytes, double ring_bytes) {
  if (tasks < 2 || !(tree_bytes >= 0) || !(ring_bytes >= 0) || !(tree_bytes + ring_bytes > 0))
    throw Error("a collectives graph needs 2 or more tasks and bytes >= 0, not both 0");
  std::vector<CommEdge> edges;
  for (int rank = 1; rank < tasks && tree_bytes > 0; ++rank) {
    int highest = 1;
    while (highest * 2 <= rank) highest *= 2;
    add_both_ways(edges, rank - highest, rank, tree_bytes);
  }
  for (int rank = 0; rank < tasks && ring_bytes > 0; ++rank)
    edges.push_back({rank, (rank + 1) % tasks, ring_bytes, 1});
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph rmat_graph(int scale, int edge_factor, double a, double b, double c, double bytes,
                     unsigned seed) {
  if (scale < 1 || scale > 20 || edge_factor < 1 || !(a >= 0 && b >= 0 && c >= 0) ||
      !(a + b + c < 1) || !(bytes > 0))
    throw Error("an R-MAT graph needs 1 <= scale <= 20, edge_factor >= 1, a, b, c >= 0 with "
                "a + b + c < 1 and positive bytes");
  const int tasks = 1 << scale;
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<CommEdge> edges;
  for (long long drawn = 0; drawn < static_cast<long long>(edge_factor) * tasks; ++drawn) {
    int row = 0, column = 0;
    for (int bit = tasks >> 1; bit > 0; bit >>= 1) {
      const double r = unit(engine);
      if (r >= a + b + c) {
        row |= bit;
        column |= bit;
      } else if (r >= a + b) {
        row |= bit;
      } else if (r >= a) {
        column |= bit;
      }
    }
    if (row != column) add_both_ways(edges, row, column, bytes);
  }
  return CommGraph::from_directed_edges(tasks, edges);
}

CommGraph box_stencil_graph(const std::vector<int>& dims, double bytes, double diagonal,
                            bool periodic) {
  long long tasks = 1;
  for (int size : dims) tasks *= size > 0 ? size : 0;
  if (dims.empty() || dims.size() > 3 || tasks < 1 || tasks > (1 << 24) || !(bytes > 0) ||
      !(diagonal >= 0 && diagonal <= 1))
    throw Error("a box stencil needs 1 to 3 positive dimensions of at most 2^24 tasks, positive "
                "bytes and a diagonal share in [0, 1]");
  std::array<int, 3> n{1, 1, 1};
  std::copy(dims.begin(), dims.end(), n.begin());
  std::vector<CommEdge> edges;
  for (int task = 0; task < tasks; ++task) {
    const std::array<int, 3> at{task % n[0], task / n[0] % n[1], task / (n[0] * n[1])};
    for (int offset = 0; offset < 27; ++offset) {
      const std::array<int, 3> step{offset % 3 - 1, offset / 3 % 3 - 1, offset / 9 - 1};
      int moved = 0, neighbour = 0;
      bool exists = true;
      for (int d = 2; d >= 0; --d) {
        int c = at[d] + step[d];
        if (step[d] != 0) {
          ++moved;
          if (n[d] == 1) exists = false;
          if (periodic) c = (c + n[d]) % n[d];
          else if (c < 0 || c >= n[d]) exists = false;
        }
        neighbour = neighbour * n[d] + c;
      }
      if (moved == 0 || !exists || (moved > 1 && diagonal == 0)) continue;
      edges.push_back({task, neighbour, bytes * std::pow(diagonal, moved - 1), 1});
    }
  }
  return CommGraph::from_directed_edges(static_cast<int>(tasks), edges);
}

namespace {

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

/// The positive integers of "AxBxC" (each at most 2^20); false if malformed.
bool parse_sizes(const std::string& text, std::vector<int>& sizes) {
  const char* cursor = text.c_str();
  while (true) {
    char* end = nullptr;
    const long size = std::strtol(cursor, &end, 10);
    if (end == cursor || size < 1 || size > 1 << 20) return false;
    sizes.push_back(static_cast<int>(size));
    if (*end == '\0') return true;
    if (*end != 'x') return false;
    cursor = end + 1;
  }
}

}  // namespace

bool is_graph_spec(const std::string& text) {
  return starts_with(text, "stencil:") || starts_with(text, "geometric:") ||
         starts_with(text, "pattern:");
}

CommGraph graph_from_spec(const std::string& spec) {
  if (starts_with(spec, "pattern:")) return pattern_graph(spec.substr(8));
  const std::string expected = "bad graph spec '" + spec +
                               "': expected 'stencil:AxBxC' with optional ':BYTES', or "
                               "'geometric:TASKS' with optional ':K' (1 to 64), or 'pattern:SPEC'";
  if (starts_with(spec, "geometric:")) {
    std::vector<int> numbers;
    std::string rest = spec.substr(10);
    const std::size_t colon = rest.find(':');
    if (colon != std::string::npos) rest[colon] = 'x';
    if (!parse_sizes(rest, numbers) || numbers.size() > 2 || numbers[0] < 2) throw Error(expected);
    const int k = numbers.size() == 2 ? numbers[1] : 6;
    if (k > 64 || (colon == std::string::npos && numbers.size() == 2)) throw Error(expected);
    return with_shuffled_ids(geometric_graph(numbers[0], std::min(k, numbers[0] - 1), 1.0, 7), 19);
  }
  if (!starts_with(spec, "stencil:")) throw Error(expected);
  std::string rest = spec.substr(8);
  double bytes = 1.0;
  const std::size_t colon = rest.find(':');
  if (colon != std::string::npos) {
    char* end = nullptr;
    bytes = std::strtod(rest.c_str() + colon + 1, &end);
    if (*end != '\0' || !(bytes > 0)) throw Error(expected);
    rest = rest.substr(0, colon);
  }
  std::vector<int> dims;
  if (!parse_sizes(rest, dims)) throw Error(expected);
  return stencil_graph(dims, bytes);
}

}  // namespace tofa
