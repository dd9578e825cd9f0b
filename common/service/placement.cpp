#include "service/placement.hpp"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "base/error.hpp"
#include "base/zeroed_scratch.hpp"
#include "map/mapper.hpp"

namespace tofa::service {

namespace {

/// The items of a comma list whose commas inside [...] do not separate.
/// Calls visit(item) for each comma-separated item outside brackets.
template <typename Visit>
void for_each_top_level_item(std::string_view text, const Visit& visit) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (c != ',' || depth != 0) continue;
    visit(text.substr(start, i - start));
    start = i + 1;
  }
}

/// "MAX" or "MIN-MAX" after an item's last ':'.
void parse_limits(std::string_view item, std::string_view text, int& min, int& max) {
  auto number = [](std::string_view digits) {
    int value = -1;
    const bool ok = !digits.empty() && digits.size() <= 7 &&
                    digits.find_first_not_of("0123456789") == std::string_view::npos;
    if (ok) std::from_chars(digits.data(), digits.data() + digits.size(), value);
    return ok ? value : -1;
  };
  const std::size_t dash = text.find('-');
  min = dash == std::string_view::npos ? 0 : number(text.substr(0, dash));
  max = number(dash == std::string_view::npos ? text : text.substr(dash + 1));
  if (min < 0 || max < 1 || max < min)
    throw Error("candidate '" + std::string(item) +
                "': expected NODES:MAX or NODES:MIN-MAX with 1 <= MAX, MIN <= MAX");
}

/// The limits with promised tasks taken off the maximums; nodes left
/// without room are dropped.
TaskLimits without_promised(const Topology& topology, const TaskLimits& limits,
                            const std::map<std::string, int>& promised) {
  TaskLimits left;
  for (std::size_t i = 0; i < limits.nodes.size(); ++i) {
    const auto it = promised.find(topology.node_name(limits.nodes[i]));
    const long long max =
        limits.max_tasks[i] - (it == promised.end() ? 0LL : static_cast<long long>(it->second));
    if (max < 1) continue;
    left.nodes.push_back(limits.nodes[i]);
    left.min_tasks.push_back(static_cast<int>(std::min<long long>(limits.min_tasks[i], max)));
    left.max_tasks.push_back(static_cast<int>(max));
  }
  return left;
}

/// True when `tasks` can meet the limits on the node count asked for.
bool holds(const TaskLimits& limits, long long tasks, const PlacementInput& input) {
  const long long least = std::accumulate(limits.min_tasks.begin(), limits.min_tasks.end(), 0LL);
  return least <= tasks && node_count_holds(limits, tasks, input.min_nodes, input.max_nodes);
}

int distinct_nodes(const Placement& placement) {
  return static_cast<int>(std::unordered_set<int>(placement.begin(), placement.end()).size());
}

/// Resolves a candidate's name and appends it to `limits` (with its limits
/// when `limited`); `seen` marks node ids. A repeat is dropped without
/// limits and an Error with them.
void add_candidate(const Topology& topology, const std::string& name, bool limited, int min,
                   int max, std::vector<char>& seen, TaskLimits& limits) {
  const int id = topology.node_by_name(name);
  if (id < 0) throw Error("candidate node " + name + " is not in the topology");
  if (std::exchange(seen[id], 1)) {
    if (limited) throw Error("candidate node " + name + " is listed twice");
    return;
  }
  limits.nodes.push_back(id);
  if (limited) {
    limits.min_tasks.push_back(min);
    limits.max_tasks.push_back(max);
  }
}

}  // namespace

TaskLimits candidate_limits(const Topology& topology, const std::vector<NamedCandidate>& candidates) {
  // In slurmctld's scheduling pass: no table or list that grows per job
  // (base/zeroed_scratch.hpp; at 65,536 nodes new pages cost ~20 us each here).
  TaskLimits result;
  result.nodes.reserve(candidates.size());
  result.min_tasks.reserve(candidates.size());
  result.max_tasks.reserve(candidates.size());
  struct Seen;
  std::vector<char>& seen = zeroed_scratch<char, Seen>(topology.node_count());
  const auto unmark = [&] {
    for (int node : result.nodes) seen[node] = 0;
  };
  std::string name;
  try {
    for (const NamedCandidate& c : candidates) {
      name.assign(c.name);
      if (c.min_tasks < 0 || c.max_tasks < 1 || c.max_tasks < c.min_tasks)
        throw Error("candidate " + name + ": expected 1 <= max tasks, min tasks <= max tasks, got " +
                    std::to_string(c.min_tasks) + "-" + std::to_string(c.max_tasks));
      add_candidate(topology, name, true, c.min_tasks, c.max_tasks, seen, result);
    }
  } catch (...) {
    unmark();
    throw;
  }
  unmark();
  return result;
}

std::string candidates_text(const Topology& topology, const TaskLimits& limits) {
  std::string text;
  for (std::size_t i = 0; i < limits.nodes.size(); ++i) {
    if (i) text += ',';
    text += topology.node_name(limits.nodes[i]);
    if (limits.max_tasks.empty()) continue;
    text += ':' + std::to_string(limits.min_tasks[i]) + '-' + std::to_string(limits.max_tasks[i]);
  }
  return text;
}

TaskLimits parse_candidates(const Topology& topology, const std::string& candidates) {
  TaskLimits result;
  if (candidates.empty()) return result;
  const bool limited = candidates.find(':') != std::string::npos;
  const auto max_names = static_cast<std::size_t>(topology.node_count());
  std::vector<char> seen(max_names, 0);
  std::vector<std::string> one_name(1);
  for_each_top_level_item(candidates, [&](std::string_view item) {
    std::string_view hosts = item;
    int min = 0, max = 0;
    if (limited) {
      const std::size_t colon = item.rfind(':');
      if (colon == std::string_view::npos)
        throw Error("candidate '" + std::string(item) +
                    "': give :MAX or :MIN-MAX on every item or none");
      hosts = item.substr(0, colon);
      parse_limits(item, item.substr(colon + 1), min, max);
    }
    // The shims list a node per item: a plain name needs no expansion (on a
    // 65,536-node torus, 32,768 of them took 2 ms through expand_hostlist).
    const bool plain = hosts.find_first_of("[],") == std::string_view::npos;
    if (plain) one_name[0].assign(hosts);
    for (const std::string& name :
         plain ? one_name : expand_hostlist(std::string(hosts), max_names))
      add_candidate(topology, name, limited, min, max, seen, result);
    if (result.nodes.size() > max_names) throw Error("more candidates than topology nodes");
  });
  return result;
}

std::map<std::string, std::string> parse_parameters(const std::string& text) {
  std::map<std::string, std::string> parameters;
  if (text.empty()) return parameters;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t equals = item.find('=');
    const std::string key = item.substr(0, equals);
    const std::string value = equals == std::string::npos ? "" : item.substr(equals + 1);
    const auto bad = [&](const std::string& why) {
      return Error("--tofa-param '" + item.substr(0, 80) + "': " + why);
    };
    if (equals == std::string::npos || key.empty() || key.size() > 64 ||
        key.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") !=
            std::string::npos)
      throw bad("expected KEY=VALUE, KEY of letters, digits, '-' and '_'");
    if (value.empty() || value.size() > 256 ||
        std::any_of(value.begin(), value.end(), [](char c) { return c <= ' ' || c == 0x7f; }))
      throw bad("VALUE must be 1 to 256 printable characters without blanks");
    if (key == "spec")
      throw bad("the service reads no user's files; map with a Rubik spec offline (tofa-map, tofa-rubik)");
    if (!parameters.emplace(key, value).second) throw bad("KEY given twice");
    if (parameters.size() > 16) throw bad("more than 16 parameters");
    start = end + 1;
  }
  return parameters;
}

ComputedPlacement compute_placement(const PlacementInput& input) {
  MappingRequest request;
  request.graph = input.graph;
  request.topology = input.topology;
  TaskLimits limits = parse_candidates(*input.topology, input.candidates);
  if (!limits.max_tasks.empty() && (!input.failing.empty() || !input.promised.empty())) {
    // Only while the job still fits: else it queues for the same CPUs, as
    // it would without them.
    std::map<std::string, int> unusable;
    for (const std::string& name : input.failing) unusable[name] = 1 << 30;
    TaskLimits healthy = without_promised(*input.topology, limits, unusable);
    for (const auto& [name, tasks] : input.promised)
      if (unusable[name] < (1 << 30)) unusable[name] += tasks;
    TaskLimits free = without_promised(*input.topology, limits, unusable);
    if (holds(free, input.graph->task_count(), input))
      limits = std::move(free);
    else if (holds(healthy, input.graph->task_count(), input))
      limits = std::move(healthy);
  }
  request.candidate_nodes = limits.nodes;
  if (input.outage) request.outage = *input.outage;
  request.slots_per_node = input.slots_per_node;
  request.fault_cost = input.fault_cost;
  request.parameters = input.parameters;
  const bool limited = !limits.max_tasks.empty();
  if (limited) {
    if (input.slots_per_node != 0)
      throw Error("give slots per node or per-node task limits (NODES:MAX), not both");
    check_task_limits(request, limits);
    // The strategy sees the largest limit everywhere; the fit below moves
    // the few tasks that breaks, and fills nodes left below their minimum.
    request.slots_per_node = *std::max_element(limits.max_tasks.begin(), limits.max_tasks.end());
  }
  const std::unique_ptr<Mapper> mapper = make_mapper(input.strategy);  // unknown names fail here
  if (!input.worker)
    request.fault_cost.link_extra = patched_link_costs(request.fault_cost.link_extra, input.link_extra_patch);
  Placement placement = input.worker
                            ? map_in_worker(request, input.strategy, *input.worker, input.link_extra_patch)
                            : mapper->map(request);
  check_placement(request, placement);
  if (limited) {
    fit_task_limits(request, limits, placement);
    const int spanned = distinct_nodes(placement);
    const int count = spanned < input.min_nodes                         ? input.min_nodes
                      : input.max_nodes > 0 && spanned > input.max_nodes ? input.max_nodes
                                                                         : 0;
    if (count > 0) {
      limits = keep_node_count(limits, placement, count, input.graph->task_count());
      request.candidate_nodes = limits.nodes;
      fit_task_limits(request, limits, placement);
    }
  } else if (input.min_nodes > 0 || input.max_nodes > 0) {
    throw Error("a node count needs per-node task limits (NODES:MAX)");
  }

  ComputedPlacement result;
  result.nodes.reserve(placement.size());
  for (int node : placement) result.nodes.push_back(input.topology->node_name(node));
  if (input.metrics)
    result.metrics = evaluate_placement(*input.graph, *input.topology, placement, request.outage);
  result.placement = std::move(placement);
  return result;
}

}  // namespace tofa::service
