// Fault files, the fault-weighted link cost of Equation 1 and the abort probability.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <istream>
#include <memory>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "base/error.hpp"
#include "faults/route_link_costs.hpp"
#include "faults/faults.hpp"
#include "faults/route_faults.hpp"

namespace tofa {

namespace {

struct Token {
  std::string text;
  int column;  // 1-based
};

// Whitespace-separated tokens of one line, up to a '#' comment.
std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size() && line[i] != '#') {
    if (std::isspace(static_cast<unsigned char>(line[i]))) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < line.size() && line[i] != '#' && !std::isspace(static_cast<unsigned char>(line[i])))
      ++i;
    tokens.push_back({line.substr(start, i - start), static_cast<int>(start) + 1});
  }
  return tokens;
}

// A node name known to the topology, else a numeric id in range; -1 otherwise.
int resolve_node(const std::string& text, const Topology& topology) {
  const int by_name = topology.node_by_name(text);
  if (by_name >= 0) return by_name;
  int id = -1;
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, id);
  if (result.ec != std::errc() || result.ptr != end) return -1;
  return id >= 0 && id < topology.node_count() ? id : -1;
}

bool parse_probability(const std::string& text, double& p) {
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, p);
  return result.ec == std::errc() && result.ptr == end && p >= 0 && p <= 1;
}

void check_outage_size(const std::vector<double>& outage, const Topology& topology) {
  if (!outage.empty() && outage.size() != static_cast<std::size_t>(topology.node_count())) {
    throw Error("outage vector has " + std::to_string(outage.size()) + " entries, expected " +
                std::to_string(topology.node_count()) + " nodes");
  }
}


bool is_faulty(int node, const std::vector<double>& outage) {
  if (outage.empty()) return false;
  if (node < 0 || static_cast<std::size_t>(node) >= outage.size()) {
    throw Error("link endpoint " + std::to_string(node) + " has no outage probability (" +
                std::to_string(outage.size()) + " nodes known)");
  }
  return outage[node] > 0;
}

void check_link_extra(const FaultCost& cost, const Topology& topology) {
  if (cost.link_extra && cost.link_extra->size() != static_cast<std::size_t>(topology.link_slot_count()))
    throw Error("link costs: " + std::to_string(cost.link_extra->size()) + " entries, expected " +
                std::to_string(topology.link_slot_count()) + " (one per directed link)");
}

}  // namespace

std::shared_ptr<const std::vector<double>> patched_link_costs(
    const std::shared_ptr<const std::vector<double>>& base, const LinkCostPatch& patch) {
  if (patch.empty()) return base;
  if (!base) throw Error("link cost patch without link costs");
  auto patched = std::make_shared<std::vector<double>>(*base);
  for (const auto& [link, cost] : patch) {
    if (link < 0 || static_cast<std::size_t>(link) >= patched->size())
      throw Error("link cost patch: link " + std::to_string(link) + " of " +
                  std::to_string(patched->size()));
    (*patched)[static_cast<std::size_t>(link)] = cost;
  }
  return patched;
}

bool any_faulty(const std::vector<double>& outage) {
  return std::any_of(outage.begin(), outage.end(), [](double p) { return p > 0; });
}

std::vector<double> parse_faults(std::istream& in, const std::string& source_name,
                                 const Topology& topology) {
  std::vector<double> outage(topology.node_count(), 0.0);
  std::vector<int> listed_on_line(topology.node_count(), 0);
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    const std::vector<Token> tokens = tokenize(line);
    if (tokens.empty()) continue;
    if (tokens.size() != 2) {
      // Point at the first surplus value, or where the missing probability belongs.
      const int column = tokens.size() > 2
                             ? tokens[2].column
                             : tokens[0].column + static_cast<int>(tokens[0].text.size());
      throw ParseError(source_name, line_number, column,
                       "expected 'NODE PROBABILITY', found " + std::to_string(tokens.size()) +
                           (tokens.size() == 1 ? " value" : " values"));
    }
    const Token& name = tokens[0];
    const Token& value = tokens[1];
    const int node = resolve_node(name.text, topology);
    if (node < 0) {
      throw ParseError(source_name, line_number, name.column,
                       "unknown node '" + name.text + "'");
    }
    if (listed_on_line[node] != 0) {
      throw ParseError(source_name, line_number, name.column,
                       "node '" + name.text + "' is listed twice (first on line " +
                           std::to_string(listed_on_line[node]) + ")");
    }
    double p = 0;
    if (!parse_probability(value.text, p)) {
      throw ParseError(source_name, line_number, value.column,
                       "expected a probability between 0 and 1, found '" + value.text + "'");
    }
    listed_on_line[node] = line_number;
    outage[node] = p;
  }
  if (in.bad()) throw Error("cannot read fault file '" + source_name + "'");
  return outage;
}

std::vector<double> read_fault_file(const std::string& path, const Topology& topology) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "r"),
                                                       &std::fclose);
  if (!file) {
    throw Error("cannot open fault file '" + path + "': " + std::strerror(errno));
  }
  std::string content;
  char buffer[4096];
  std::size_t count;
  while ((count = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    content.append(buffer, count);
  if (std::ferror(file.get())) {
    throw Error("cannot read fault file '" + path + "': " + std::strerror(errno));
  }
  std::istringstream in(content);
  return parse_faults(in, path, topology);
}

void check_fault_cost(const FaultCost& cost) {
  if (!(std::isfinite(cost.link_cost) && cost.link_cost > 0))
    throw Error("link cost c must be a finite number > 0, got " + std::to_string(cost.link_cost));
  if (!(std::isfinite(cost.penalty) && cost.penalty >= 0))
    throw Error("fault penalty must be a finite number >= 0, got " + std::to_string(cost.penalty));
}

double link_cost(const Link& link, const std::vector<double>& outage, const FaultCost& cost) {
  const bool faulty = is_faulty(link.from, outage) || is_faulty(link.to, outage);
  return faulty ? cost.link_cost + cost.penalty * cost.link_cost : cost.link_cost;
}

double fault_weighted_distance(const Topology& topology, const std::vector<double>& outage,
                               int from, int to, const FaultCost& cost) {
  check_outage_size(outage, topology);
  check_link_extra(cost, topology);
  if (from == to) return 0;
  thread_local std::vector<int> path;  // called for every pair of a target: no allocation
  topology.route_nodes(from, to, path);
  double total = 0;
  for (std::size_t k = 0; k + 1 < path.size(); ++k)
    total += link_cost(Link{path[k], path[k + 1], 0, +1}, outage, cost);
  if (cost.link_extra)
    total += cost.link_cost * RouteLinkCosts::for_thread(topology, cost.link_extra).sum(from, to);
  return total;
}

double fault_weighted_hop_bytes(const Topology& topology, const CommGraph& graph,
                                const std::vector<int>& placement,
                                const std::vector<double>& outage, const FaultCost& cost) {
  check_outage_size(outage, topology);
  RouteFaults faults(topology, outage);
  return fault_weighted_hop_bytes(topology, graph, placement, faults, cost);
}

double fault_weighted_hop_bytes(const Topology& topology, const CommGraph& graph,
                                const std::vector<int>& placement, RouteFaults& faults,
                                const FaultCost& cost) {
  check_placement_shape(graph, topology.node_count(), placement);
  check_link_extra(cost, topology);
  const auto& offsets = graph.offsets();
  const auto& adjacency = graph.adjacency();
  // A route of h links, f of them faulty, costs c * (h + penalty * f): no
  // route walk (auto scores every placement it considers with this; at 1024
  // tasks of 26 partners the walks took 8 ms, at 4096 tasks on 65,536 nodes
  // 25-34 ms).
  const bool penalised = cost.penalty > 0 && faults.any();
  RouteLinkCosts* extra = cost.link_extra ? &RouteLinkCosts::for_thread(topology, cost.link_extra) : nullptr;
  double total = 0;
  // Each pair appears once per direction in the symmetric graph: each entry
  // adds the bytes sent its way times its own direction's route cost.
  for (int a = 0; a < graph.task_count(); ++a)
    for (std::int64_t k = offsets[a]; k < offsets[a + 1]; ++k) {
      const int from = placement[a];
      const int to = placement[adjacency[k]];
      if (from == to) continue;
      double links = topology.hop_distance(from, to);
      if (penalised) links += cost.penalty * faults.faulty_links(from, to);
      if (extra) links += extra->sum(from, to);
      total += graph.sent(k) * cost.link_cost * links;
    }
  return total;
}

double expected_abort_probability(const Topology& topology, const CommGraph& graph,
                                  const std::vector<int>& placement,
                                  const std::vector<double>& outage) {
  check_outage_size(outage, topology);
  RouteFaults faults(topology, outage);
  return expected_abort_probability(topology, graph, placement, outage, faults);
}

double expected_abort_probability(const Topology& topology, const CommGraph& graph,
                                  const std::vector<int>& placement,
                                  const std::vector<double>& outage, RouteFaults& faults) {
  check_placement_shape(graph, topology.node_count(), placement);
  check_outage_size(outage, topology);
  if (!faults.any()) return 0;

  // Only failing nodes change the product: those the placement uses, and
  // those on a route with a faulty link (a route passing a failing node has
  // one; most routes have none and are not walked).
  std::vector<int> failing;
  for (int node : placement)
    if (outage[node] > 0) failing.push_back(node);
  const auto& offsets = graph.offsets();
  const auto& adjacency = graph.adjacency();
  const auto& bytes = graph.bytes();
  std::vector<int> path;
  const auto walk = [&](int from, int to) {
    if (faults.faulty_links(from, to) == 0) return;
    topology.route_nodes(from, to, path);
    for (int node : path)
      if (outage[node] > 0) failing.push_back(node);
  };
  for (int a = 0; a < graph.task_count(); ++a) {
    for (std::int64_t k = offsets[a]; k < offsets[a + 1]; ++k) {
      const int b = adjacency[k];
      // Each undirected edge once; its messages take R(a,b) and R(b,a),
      // which differ on a ring's halfway point and across dimensions.
      if (b <= a || !(bytes[k] > 0) || placement[a] == placement[b]) continue;
      walk(placement[a], placement[b]);
      walk(placement[b], placement[a]);
    }
  }
  std::sort(failing.begin(), failing.end());
  failing.erase(std::unique(failing.begin(), failing.end()), failing.end());
  double survive = 1;
  for (int node : failing) survive *= 1 - outage[node];
  return 1 - survive;
}

}  // namespace tofa
