// Torus / mesh model: coordinates, dimension-order routing, neighbours, names.
#include "topology/topology.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <sstream>

#include "base/error.hpp"

namespace tofa {
namespace {

std::string join_dims(const std::vector<int>& dims) {
  std::string text;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d > 0) text += 'x';
    text += std::to_string(dims[d]);
  }
  return text;
}

/// Direction of the next hop from coordinate `cur` to `target` (they differ)
/// in a dimension of size `size`. In a ring this is SimGrid 3.32's TorusZone
/// predicate, re-evaluated at every hop: it takes the shorter way, and at a
/// tie (distance size/2) goes +1 except from coordinate size/2.
int step_direction(int cur, int target, int size, bool wraps) {
  if (!wraps) return target > cur ? +1 : -1;
  const int half = size / 2;
  const bool up = (target > cur && target <= cur + half) ||
                  (cur > half && (cur + half) % size >= target);
  return up ? +1 : -1;
}

int ring_distance(int a, int b, int size, bool wraps) {
  const int straight = std::abs(a - b);
  return wraps ? std::min(straight, size - straight) : straight;
}

/// Parses a whole string of decimal digits into a positive int; false otherwise.
bool parse_positive(const std::string& text, int& value) {
  if (text.empty() || text.size() > 9) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  value = std::stoi(text);
  return value > 0;
}

bool parse_dims(const std::string& text, std::vector<int>& dims) {
  dims.clear();
  size_t start = 0;
  while (true) {
    const size_t end = text.find('x', start);
    int size = 0;
    if (!parse_positive(text.substr(start, end - start), size)) return false;
    dims.push_back(size);
    if (end == std::string::npos) return true;
    start = end + 1;
  }
}

}  // namespace

Topology::Topology(std::vector<int> dims, std::vector<bool> wrap, int cores_per_node)
    : dims_(std::move(dims)), wrap_(std::move(wrap)), cores_per_node_(cores_per_node),
      node_count_(1) {
  if (dims_.empty()) throw Error("a topology needs at least one dimension");
  if (dims_.size() > static_cast<size_t>(kMaxTopologyDimensions))
    throw Error("a topology has at most " + std::to_string(kMaxTopologyDimensions) +
                " dimensions, got " + std::to_string(dims_.size()));
  if (wrap_.size() != dims_.size())
    throw Error("topology has " + std::to_string(dims_.size()) + " dimension(s) but " +
                std::to_string(wrap_.size()) + " wrap value(s)");
  if (cores_per_node_ < 1)
    throw Error("cores per node must be at least 1, got " + std::to_string(cores_per_node_));
  long long count = 1;
  for (size_t d = 0; d < dims_.size(); ++d) {
    if (dims_[d] < 1)
      throw Error("dimension " + std::to_string(d) + " of topology " + join_dims(dims_) +
                  " has size " + std::to_string(dims_[d]) + ": sizes must be at least 1");
    count *= dims_[d];
    if (count > kMaxTopologyNodes)
      throw Error("topology " + join_dims(dims_) + " has more than " +
                  std::to_string(kMaxTopologyNodes) + " nodes");
  }
  node_count_ = static_cast<int>(count);
  // The default names "n<id>" are found by parsing, not by a sorted copy:
  // a mapping worker builds a topology per job, 65,536 nodes included.
  names_.resize(node_count_);
  for (int id = 0; id < node_count_; ++id) names_[id] = "n" + std::to_string(id);
}

Topology Topology::from_spec(const std::string& spec) {
  const Error bad("bad topology spec '" + spec +
                  "': expected 'torus:AxBxC' or 'mesh:AxB' with optional ':cores=N'");
  std::vector<std::string> parts;
  std::stringstream stream(spec);
  for (std::string part; std::getline(stream, part, ':');) parts.push_back(part);
  if (!spec.empty() && spec.back() == ':') parts.push_back("");
  if (parts.size() < 2 || parts.size() > 3) throw bad;
  if (parts[0] != "torus" && parts[0] != "mesh") throw bad;
  std::vector<int> dims;
  if (!parse_dims(parts[1], dims)) throw bad;
  int cores = 1;
  if (parts.size() == 3) {
    const std::string prefix = "cores=";
    if (parts[2].compare(0, prefix.size(), prefix) != 0) throw bad;
    if (!parse_positive(parts[2].substr(prefix.size()), cores)) throw bad;
  }
  return Topology(dims, std::vector<bool>(dims.size(), parts[0] == "torus"), cores);
}

bool Topology::is_full_torus() const {
  return std::all_of(wrap_.begin(), wrap_.end(), [](bool w) { return w; });
}

std::vector<int> Topology::coords(int node) const {
  if (node < 0 || node >= node_count_)
    throw Error("node id " + std::to_string(node) + " is outside 0.." +
                std::to_string(node_count_ - 1));
  std::vector<int> result(dims_.size());
  for (size_t d = 0; d < dims_.size(); ++d) {
    result[d] = node % dims_[d];
    node /= dims_[d];
  }
  return result;
}

int Topology::node_at(const std::vector<int>& coords) const {
  bool inside = coords.size() == dims_.size();
  for (size_t d = 0; inside && d < dims_.size(); ++d)
    inside = coords[d] >= 0 && coords[d] < dims_[d];
  if (!inside) {
    std::string text;
    for (size_t d = 0; d < coords.size(); ++d) text += (d ? "," : "") + std::to_string(coords[d]);
    throw Error("coordinate " + text + " is outside " + join_dims(dims_));
  }
  int id = 0;
  for (size_t d = dims_.size(); d-- > 0;) id = id * dims_[d] + coords[d];
  return id;
}

template <typename Step>
void Topology::walk_route(int from, int to, int hops, Step step) const {
  int current = from;
  int stride = 1;
  int taken = 0;
  for (int d = 0; d < dimension_count(); ++d) {
    const int size = dims_[d];
    int cur = (current / stride) % size;
    const int target = (to / stride) % size;
    while (cur != target) {
      const int direction = step_direction(cur, target, size, wrap_[d]);
      const int next = (cur + direction + size) % size;
      const int next_node = current + (next - cur) * stride;
      if (taken++ == hops)  // the rule must never loop
        throw Error("route " + std::to_string(from) + " -> " + std::to_string(to) +
                    " is longer than its hop distance " + std::to_string(hops));
      step(Link{current, next_node, d, direction});
      current = next_node;
      cur = next;
    }
    stride *= size;
  }
}

Route Topology::route(int from, int to) const {
  Route result;
  const int hops = hop_distance(from, to);  // also validates the ids
  if (hops == 0) return result;
  result.links.reserve(hops);
  result.intermediate_nodes.reserve(hops - 1);
  walk_route(from, to, hops, [&](const Link& link) { result.links.push_back(link); });
  for (size_t i = 0; i + 1 < result.links.size(); ++i)
    result.intermediate_nodes.push_back(result.links[i].to);
  return result;
}

void Topology::route_nodes(int from, int to, std::vector<int>& nodes) const {
  const int hops = hop_distance(from, to);
  nodes.clear();
  nodes.push_back(from);
  walk_route(from, to, hops, [&](const Link& link) { nodes.push_back(link.to); });
}

void Topology::route_link_ids(int from, int to, std::vector<int>& ids) const {
  const int hops = hop_distance(from, to);
  ids.clear();
  walk_route(from, to, hops, [&](const Link& link) { ids.push_back(link_id(link)); });
}

int Topology::hop_direction(int dimension, int from, int to) const {
  return step_direction(from, to, dims_[dimension], wrap_[dimension]);
}

int Topology::hop_distance(int from, int to) const {
  if (from < 0 || from >= node_count_ || to < 0 || to >= node_count_)
    throw Error("route " + std::to_string(from) + " -> " + std::to_string(to) +
                ": node ids must be in 0.." + std::to_string(node_count_ - 1));
  int hops = 0;
  for (int d = 0; d < dimension_count(); ++d) {
    hops += ring_distance(from % dims_[d], to % dims_[d], dims_[d], wrap_[d]);
    from /= dims_[d];
    to /= dims_[d];
  }
  return hops;
}

std::vector<int> Topology::neighbours(int node) const {
  const std::vector<int> here = coords(node);
  std::vector<int> result;
  int stride = 1;
  for (int d = 0; d < dimension_count(); ++d) {
    const int size = dims_[d];
    for (int direction : {+1, -1}) {
      int next = here[d] + direction;
      if (next < 0 || next >= size) {
        if (!wrap_[d]) continue;
        next = (next + size) % size;
      }
      const int neighbour = node + (next - here[d]) * stride;
      if (neighbour != node &&
          std::find(result.begin(), result.end(), neighbour) == result.end())
        result.push_back(neighbour);
    }
    stride *= size;
  }
  return result;
}

int Topology::link_id(const Link& link) const {
  if (link.from < 0 || link.from >= node_count_ || link.dimension < 0 ||
      link.dimension >= dimension_count())
    throw Error("link " + std::to_string(link.from) + " -> " + std::to_string(link.to) +
                " (dimension " + std::to_string(link.dimension) + ") is not in topology " +
                join_dims(dims_));
  return (link.from * dimension_count() + link.dimension) * 2 + (link.direction > 0 ? 0 : 1);
}

Link Topology::link_of(int id) const {
  if (id < 0 || id >= link_slot_count())
    throw Error("link id " + std::to_string(id) + " is not in topology " + join_dims(dims_));
  Link link;
  link.from = id / 2 / dimension_count();
  link.dimension = id / 2 % dimension_count();
  link.direction = id % 2 == 0 ? +1 : -1;
  std::vector<int> at = coords(link.from);
  const int length = dims_[link.dimension];
  at[link.dimension] = ((at[link.dimension] + link.direction) % length + length) % length;
  link.to = node_at(at);
  return link;
}

int Topology::reverse_link_id(int id) const {
  if (id < 0 || id >= link_slot_count())
    throw Error("link id " + std::to_string(id) + " is not in topology " + join_dims(dims_));
  const int dimensions = dimension_count();
  const int from = id / 2 / dimensions, dimension = id / 2 % dimensions;
  const int direction = id % 2 == 0 ? +1 : -1;
  int stride = 1;
  for (int d = 0; d < dimension; ++d) stride *= dims_[d];
  const int length = dims_[dimension];
  const int at = from / stride % length;
  const int to = from + (((at + direction) % length + length) % length - at) * stride;
  return (to * dimensions + dimension) * 2 + (direction > 0 ? 1 : 0);
}

int Topology::node_by_name(const std::string& name) const {
  if (sorted_names_.empty()) {  // the default names
    if (name.size() < 2 || name.size() > 11 || name[0] != 'n' || (name[1] == '0' && name.size() > 2))
      return -1;
    long long id = 0;
    for (std::size_t i = 1; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return -1;
      id = id * 10 + (name[i] - '0');
    }
    return id < node_count_ ? static_cast<int>(id) : -1;
  }
  const auto it = std::lower_bound(
      sorted_names_.begin(), sorted_names_.end(), name,
      [](const std::pair<std::string, int>& entry, const std::string& key) {
        return entry.first < key;
      });
  return it != sorted_names_.end() && it->first == name ? it->second : -1;
}

void Topology::set_node_names(std::vector<std::string> names) {
  if (static_cast<int>(names.size()) != node_count_)
    throw Error("expected " + std::to_string(node_count_) + " node names, got " +
                std::to_string(names.size()));
  std::vector<std::pair<std::string, int>> sorted;
  sorted.reserve(names.size());
  for (int id = 0; id < node_count_; ++id) {
    if (names[id].empty()) throw Error("node " + std::to_string(id) + " has an empty name");
    sorted.emplace_back(names[id], id);
  }
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].first == sorted[i - 1].first)
      throw Error("node name '" + sorted[i].first + "' is given to nodes " +
                  std::to_string(sorted[i - 1].second) + " and " +
                  std::to_string(sorted[i].second));
  names_ = std::move(names);
  sorted_names_ = std::move(sorted);
}

std::string Topology::describe() const {
  std::string kind;
  if (is_full_torus()) {
    kind = "torus " + join_dims(dims_);
  } else if (std::none_of(wrap_.begin(), wrap_.end(), [](bool w) { return w; })) {
    kind = "mesh " + join_dims(dims_);
  } else {
    kind = "torus/mesh " + join_dims(dims_) + " (wrap ";
    for (size_t d = 0; d < wrap_.size(); ++d)
      kind += std::string(d ? "," : "") + (wrap_[d] ? "yes" : "no");
    kind += ")";
  }
  return kind + ", " + std::to_string(cores_per_node_) + " core(s) per node";
}

std::vector<int> snake_order(const Topology& topology) {
  const std::vector<int>& dims = topology.dims();
  std::vector<int> order(topology.node_count());
  std::vector<int> lower_product(dims.size());  // nodes in dimensions 0..d-1
  int product = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    lower_product[d] = product;
    product *= dims[d];
  }
  std::vector<int> coords(dims.size());
  for (int step = 0; step < topology.node_count(); ++step) {
    // The walk over dimensions 0..d is the walk over 0..d-1 repeated for
    // each coordinate of d, reversed when that coordinate is odd.
    int rest = step;
    for (size_t d = dims.size(); d-- > 0;) {
      coords[d] = rest / lower_product[d];
      rest %= lower_product[d];
      if (coords[d] % 2 == 1) rest = lower_product[d] - 1 - rest;
    }
    order[step] = topology.node_at(coords);
  }
  return order;
}

}  // namespace tofa
