#include "compact_choice.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "base/error.hpp"
#include "base/evenly_spread.hpp"
#include "base/zeroed_scratch.hpp"

namespace tofa {
namespace {

/// Corners tried, spread evenly over the usable candidates in their order
/// (as the candidate window's centers, map/portfolio/candidate_window.cpp).
constexpr int kCorners = 16;
constexpr int kUnreached = std::numeric_limits<int>::max();

/// Grows boxes from a corner: the nodes at offsets 0..r along every
/// dimension, one shell (r = 0, 1, ...) at a time, each shell layer by layer
/// (dimension 0 fastest). The first nodes of an idle torus so taken are a
/// near-cube (4 a square, 8 a cube), where a breadth-first ball of 4 is a
/// star whose tips are 2 hops apart. Along a mesh dimension the box grows
/// away from the nearer end.
class BoxSearch {
 public:
  BoxSearch(const Topology& topology, const std::vector<char>& usable,
            const std::vector<double>& outage)
      : topology_(topology), usable_(usable), outage_(outage),
        longest_(*std::max_element(topology.dims().begin(), topology.dims().end())) {}

  /// Passes the usable nodes of the growing box to take(node) until it
  /// returns false; returns the shell of the node that ended it, kUnreached
  /// when the nodes ran out or the box passed `max_radius` or more than
  /// `max_failing` nodes that may fail.
  template <typename Take>
  int grow(int corner, int max_radius, int max_failing, const Take& take) {
    const int count = topology_.dimension_count();
    const std::vector<int> origin = topology_.coords(corner);
    start_at(origin);
    std::vector<int> offset(count);
    failing_seen_ = 0;
    for (int radius = 0; radius < longest_ && radius <= max_radius; ++radius) {
      // The shell's offsets in order (dimension 0 fastest): the other
      // dimensions' offsets in [0, radius]; dimension 0's all of them when
      // one of those is on the shell, else radius alone.
      std::fill(offset.begin(), offset.end(), 0);
      for (;;) {
        bool on_shell = false, off_mesh = false;
        int row = 0;  // the node id of the row's dimension-0 offset 0
        for (int d = 1; d < count; ++d) {
          on_shell = on_shell || offset[d] == radius;
          const int part = id_part_[d][offset[d]];
          off_mesh = off_mesh || part < 0;
          row += part;
        }
        const int last = std::min(radius, topology_.dims()[0] - 1);
        for (int o = on_shell ? 0 : radius; !off_mesh && o <= last; ++o) {
          if (id_part_[0][o] < 0) continue;
          const int node = row + id_part_[0][o];
          failing_seen_ += may_fail(node, outage_);
          if (failing_seen_ > max_failing) return kUnreached;
          if (usable_[node] && !take(node)) return radius;
        }
        int d = 1;
        while (d < count && offset[d] == std::min(radius, topology_.dims()[d] - 1)) offset[d++] = 0;
        if (d >= count) break;
        ++offset[d];
      }
    }
    return kUnreached;
  }

  int failing_seen() const { return failing_seen_; }

 private:
  /// id_part_[d][o]: what the coordinate at offset o from the corner along
  /// dimension d adds to a node id (-1 off a mesh's end). Along a mesh
  /// dimension the box grows away from the nearer end.
  void start_at(const std::vector<int>& origin) {
    const int count = topology_.dimension_count();
    id_part_.resize(count);
    int stride = 1;
    for (int d = 0; d < count; ++d) {
      const int length = topology_.dims()[d];
      const bool wraps = topology_.wrap()[d];
      const int step = !wraps && origin[d] >= length / 2 ? -1 : 1;
      id_part_[d].resize(length);
      for (int o = 0; o < length; ++o) {
        int at = origin[d] + step * o;
        if (wraps) at = ((at % length) + length) % length;
        id_part_[d][o] = at < 0 || at >= length ? -1 : at * stride;
      }
      stride *= length;
    }
  }

  const Topology& topology_;
  const std::vector<char>& usable_;
  const std::vector<double>& outage_;
  const int longest_;
  std::vector<std::vector<int>> id_part_;
  int failing_seen_ = 0;
};

struct Box {
  int corner = -1;
  int failing = kUnreached;
  int radius = kUnreached;
};

}  // namespace

// long: caps, box search, fill and the -N fallback share the cap and box arrays.
Placement compact_choice(const Topology& topology, const TaskLimits& limits,
                         const std::vector<double>& outage, int tasks, int min_nodes,
                         int max_nodes) {
  const auto fails = [&](int node) { return may_fail(node, outage); };
  // Node-sized tables from the thread's scratch (base/zeroed_scratch.hpp):
  // this runs in slurmctld's scheduling pass for every TOFA job.
  struct Listed;
  struct Usable;
  std::vector<int>& listed = zeroed_scratch<int, Listed>(topology.node_count());  // index + 1
  std::vector<char>& usable = zeroed_scratch<char, Usable>(topology.node_count());
  const ZeroedOnExit<int, std::vector<int>> clear_listed(listed, limits.nodes);
  const ZeroedOnExit<char, std::vector<int>> clear_usable(usable, limits.nodes);
  for (std::size_t i = 0; i < limits.nodes.size(); ++i) listed[limits.nodes[i]] = static_cast<int>(i) + 1;
  const auto cap = [&](int node) {
    const int at = listed[node] - 1;
    return at < 0 ? 0 : limits.max_tasks.empty() ? 1 << 30 : limits.max_tasks[at];
  };
  const auto floor = [&](int node) {
    const int at = listed[node] - 1;
    return at < 0 || limits.min_tasks.empty() ? 0 : limits.min_tasks[at];
  };
  long long room = 0, healthy_room = 0, floors = 0;
  int healthy_nodes = 0, usable_nodes = 0;
  bool forced = false;  // some node must take tasks: every listed node is used
  for (std::size_t i = 0; i < limits.nodes.size(); ++i) {
    const int node = limits.nodes[i];
    forced = forced || floor(node) > 0;
    floors += floor(node);
    if (cap(node) <= 0) continue;
    room += cap(node);
    ++usable_nodes;
    if (!fails(node)) healthy_room += cap(node), ++healthy_nodes;
  }
  if (room < tasks || floors > tasks || usable_nodes < min_nodes)
    throw Error("the candidates hold " + std::to_string(room) + " of the " +
                std::to_string(tasks) + " tasks on " + std::to_string(usable_nodes) +
                " nodes (at least " + std::to_string(min_nodes) + ")");
  const bool healthy_only = !forced && healthy_room >= tasks && healthy_nodes >= min_nodes;
  std::size_t usable_count = 0;
  int first_usable = -1;
  for (int node : limits.nodes)
    if (cap(node) > 0 && (!healthy_only || !fails(node))) {
      usable[node] = 1;
      if (usable_count++ == 0) first_usable = node;
    }

  // Grows until the box holds the job (every listed node when some must
  // take tasks).
  BoxSearch search(topology, usable, outage);
  const auto box_from = [&](int corner, int max_radius, int max_failing,
                            std::vector<int>* box) {
    long long held = 0;
    int taken = 0;
    return search.grow(corner, max_radius, max_failing, [&](int node) {
      if (box) box->push_back(node);
      held += cap(node);
      ++taken;
      return forced ? taken < static_cast<int>(usable_count)
                    : held < tasks || taken < min_nodes;
    });
  };
  Box best;
  const std::vector<int> corners = evenly_spread(
      limits.nodes, [&](int node) { return usable[node] != 0; }, usable_count, kCorners);
  for (int corner : corners) {
    const int radius = box_from(corner, best.failing == 0 ? best.radius : kUnreached - 1,
                                best.failing, nullptr);
    if (radius == kUnreached) continue;
    const int failing = search.failing_seen();
    if (failing < best.failing || (failing == best.failing && radius < best.radius))
      best = Box{corner, failing, radius};
  }
  const int corner = best.corner < 0 ? first_usable : best.corner;
  std::vector<int> box;
  box_from(corner, kUnreached - 1, kUnreached, &box);
  // Nodes the box did not reach (a forced list's far ones; on a mesh, those
  // behind the corner): last.
  const auto add_unreached = [&] {
    if (box.size() == usable_count) return;
    for (int node : box) usable[node] = 2;  // in the box
    const std::size_t boxed = box.size();
    for (int node : limits.nodes)
      if (usable[node] == 1) box.push_back(node);
    for (std::size_t i = 0; i < boxed; ++i) usable[box[i]] = 1;
  };
  long long held = 0;
  for (int node : box) held += cap(node);
  if (forced || held < tasks) add_unreached();

  // Each node its minimum (one each on the first min_nodes), then blocks
  // in the box's order.
  const auto fill = [&](const std::vector<int>& nodes, int* spanned) {
    Placement placement;
    placement.reserve(tasks);
    std::vector<int> count(nodes.size(), 0);
    long long left = tasks;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      count[i] = std::max(floor(nodes[i]), static_cast<int>(i) < min_nodes ? 1 : 0);
      left -= count[i];
    }
    for (std::size_t i = 0; i < nodes.size() && left > 0; ++i) {
      const long long more = std::min<long long>(left, cap(nodes[i]) - count[i]);
      count[i] += static_cast<int>(more);
      left -= more;
    }
    *spanned = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      *spanned += count[i] > 0;
      placement.insert(placement.end(), count[i], nodes[i]);
    }
    if (left > 0 || static_cast<int>(placement.size()) != tasks)
      throw Error("the candidates' limits do not hold the " + std::to_string(tasks) + " tasks");
    return placement;
  };
  int spanned = 0;
  Placement placement = fill(box, &spanned);
  if (max_nodes > 0 && spanned > max_nodes) {
    // Too many small nodes near the corner (-N on a busy machine): the
    // fewest nodes that hold the job, the roomiest first (nearest the corner
    // among equals), in the order the box grows.
    box.clear();
    search.grow(corner, kUnreached - 1, kUnreached, [&](int node) {
      box.push_back(node);
      return true;
    });
    add_unreached();
    std::vector<std::size_t> roomiest(box.size());
    for (std::size_t i = 0; i < box.size(); ++i) roomiest[i] = i;
    std::stable_sort(roomiest.begin(), roomiest.end(),
                     [&](std::size_t a, std::size_t b) { return cap(box[a]) > cap(box[b]); });
    std::vector<char> kept(box.size(), 0);
    long long kept_room = 0;
    int kept_count = 0;
    for (std::size_t i : roomiest) {
      if (kept_room >= tasks && kept_count >= min_nodes) break;
      kept[i] = 1, kept_room += cap(box[i]), ++kept_count;
    }
    if (kept_count > max_nodes)
      throw Error("no " + std::to_string(max_nodes) + " of the candidates hold the " +
                  std::to_string(tasks) + " tasks");
    std::vector<int> fewer;
    for (std::size_t i = 0; i < box.size(); ++i)
      if (kept[i]) fewer.push_back(box[i]);
    placement = fill(fewer, &spanned);
  }
  return placement;
}

}  // namespace tofa
