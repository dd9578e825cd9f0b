// The C API: every entry point converts exceptions into TOFA_ERROR + message.
#include "tofa.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <sstream>
#include <string>

#include "capi_guard.hpp"
#include "graph/generators.hpp"
#include "graph/patterns/patterns.hpp"
#include "map/mapper.hpp"
#include "map/task_limits.hpp"
#include "metrics/metrics.hpp"

struct tofa_topology {
  tofa::Topology topology;
};

struct tofa_graph {
  tofa::CommGraph graph;
};

namespace {

using tofa::capi::guarded;
using tofa::capi::require;

bool valid_node(const tofa_topology_t* t, int node) {
  return t != nullptr && node >= 0 && node < t->topology.node_count();
}

std::vector<double> outage_vector(const tofa_topology_t* t, const double* outage) {
  if (outage == nullptr) return {};
  return std::vector<double>(outage, outage + t->topology.node_count());
}


}  // namespace

extern "C" {

int tofa_topology_load(const char* spec_or_path, tofa_topology_t** out, char* err,
                       size_t err_size) {
  return guarded(err, err_size, [&] {
    require(spec_or_path != nullptr && out != nullptr, "tofa_topology_load: NULL argument");
    *out = new tofa_topology{tofa::load_topology(spec_or_path)};
  });
}

void tofa_topology_free(tofa_topology_t* topology) { delete topology; }

int tofa_topology_node_count(const tofa_topology_t* t) {
  return t ? t->topology.node_count() : -1;
}

int tofa_topology_cores_per_node(const tofa_topology_t* t) {
  return t ? t->topology.cores_per_node() : -1;
}

int tofa_topology_node_index(const tofa_topology_t* t, const char* name) {
  if (t == nullptr || name == nullptr) return -1;
  try {
    return t->topology.node_by_name(name);
  } catch (...) {
    return -1;
  }
}

const char* tofa_topology_node_name(const tofa_topology_t* t, int node) {
  return valid_node(t, node) ? t->topology.node_name(node).c_str() : nullptr;
}

int tofa_topology_hops(const tofa_topology_t* t, int from, int to) {
  if (!valid_node(t, from) || !valid_node(t, to)) return -1;
  return t->topology.hop_distance(from, to);
}

int tofa_topology_route(const tofa_topology_t* t, int from, int to, int* nodes,
                        int max_nodes) {
  if (!valid_node(t, from) || !valid_node(t, to) || nodes == nullptr) return -1;
  try {
    tofa::Route route = t->topology.route(from, to);
    int count = from == to ? 1 : route.hops() + 1;
    if (count > max_nodes) return -1;
    nodes[0] = from;
    for (int i = 0; i < route.hops(); ++i) nodes[i + 1] = route.links[i].to;
    return count;
  } catch (...) {
    return -1;
  }
}

int tofa_topology_snake_order(const tofa_topology_t* t, int* order, int order_size) {
  if (t == nullptr || order == nullptr || order_size < t->topology.node_count())
    return TOFA_ERROR;
  return guarded(nullptr, 0, [&] {
    std::vector<int> snake = tofa::snake_order(t->topology);
    std::copy(snake.begin(), snake.end(), order);
  });
}

int tofa_graph_load(const char* path, tofa_graph_t** out, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(path != nullptr && out != nullptr, "tofa_graph_load: NULL argument");
    *out = new tofa_graph{tofa::read_graph(path)};
  });
}

int tofa_graph_parse(const char* text, size_t length, const char* source_name,
                     tofa_graph_t** out, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(text != nullptr && out != nullptr, "tofa_graph_parse: NULL argument");
    std::istringstream in(std::string(text, length));
    *out = new tofa_graph{tofa::parse_graph(in, source_name ? source_name : "<graph>")};
  });
}

int tofa_graph_from_pattern(const char* spec, tofa_graph_t** out, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(spec != nullptr && out != nullptr, "tofa_graph_from_pattern: NULL argument");
    *out = new tofa_graph{tofa::pattern_graph(spec)};
  });
}

const char* tofa_pattern_usage(int index) {
  const auto& kinds = tofa::pattern_kinds();
  return index >= 0 && index < static_cast<int>(kinds.size()) ? kinds[index].usage : nullptr;
}

void tofa_graph_free(tofa_graph_t* graph) { delete graph; }

int tofa_graph_task_count(const tofa_graph_t* g) { return g ? g->graph.task_count() : -1; }

const char* tofa_strategy_name(int index) {
  try {
    const auto& table = tofa::mapper_table();
    if (index < 0 || index >= static_cast<int>(table.size())) return nullptr;
    return table[index].name;
  } catch (...) {
    return nullptr;
  }
}

void tofa_map_request_init(tofa_map_request_t* request) {
  if (request == nullptr) return;
  std::memset(request, 0, sizeof *request);
  request->seed = 1;
  request->link_cost = 1.0;
  request->fault_penalty = 100.0;
}

int tofa_map(const tofa_topology_t* t, const tofa_graph_t* g,
             const tofa_map_request_t* request, int* placement, int placement_size,
             char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(t != nullptr && g != nullptr && request != nullptr && placement != nullptr,
            "tofa_map: NULL argument");
    require(placement_size >= g->graph.task_count(), "tofa_map: placement array too small");
    tofa::MappingRequest req;
    req.graph = &g->graph;
    req.topology = &t->topology;
    if (request->candidates != nullptr)
      req.candidate_nodes.assign(request->candidates,
                                 request->candidates + request->candidate_count);
    req.outage = outage_vector(t, request->outage);
    req.slots_per_node = request->slots_per_node;
    req.seed = request->seed;
    req.fault_cost.link_cost = request->link_cost;
    req.fault_cost.penalty = request->fault_penalty;
    auto mapper = tofa::make_mapper(request->strategy ? request->strategy : "tofa");
    tofa::Placement result = mapper->map(req);
    std::copy(result.begin(), result.end(), placement);
  });
}

int tofa_evaluate(const tofa_topology_t* t, const tofa_graph_t* g, const int* placement,
                  int placement_size, const double* outage, tofa_metrics_t* out, char* err,
                  size_t err_size) {
  return guarded(err, err_size, [&] {
    require(t != nullptr && g != nullptr && placement != nullptr && out != nullptr,
            "tofa_evaluate: NULL argument");
    std::vector<int> tasks(placement, placement + placement_size);
    tofa::PlacementMetrics m =
        tofa::evaluate_placement(g->graph, t->topology, tasks, outage_vector(t, outage));
    *out = tofa_metrics_t{m.tasks,        m.nodes_used,   m.max_hops,     m.links_used,
                          m.total_bytes,  m.hop_bytes,    m.average_hops, m.hop_variance,
                          m.dilation,     m.max_link_load, m.abort_probability};
  });
}

static_assert(TOFA_MAX_TASKS_PER_NODE == tofa::kMaxTasksPerNode, "one cap for C and C++");

unsigned tofa_task_limit(unsigned cpus, unsigned cpus_per_task, unsigned tasks_per_node,
                         int overcommit) {
  return tofa::task_limit(cpus, cpus_per_task, tasks_per_node, overcommit != 0);
}

void tofa_node_bounds(unsigned tasks, unsigned tasks_per_node, unsigned* min_nodes,
                      unsigned* max_nodes) {
  if (min_nodes != nullptr && max_nodes != nullptr)
    tofa::node_bounds(tasks, tasks_per_node, *min_nodes, *max_nodes);
}

int tofa_spread_task_limits(unsigned* limits, size_t count, unsigned tasks, unsigned min_nodes) {
  return guarded(nullptr, 0, [&] {
    require(limits != nullptr || count == 0, "tofa_spread_task_limits: NULL limits");
    const std::vector<unsigned> spread =
        tofa::spread_task_limits(std::vector<unsigned>(limits, limits + count), tasks, min_nodes);
    std::copy(spread.begin(), spread.end(), limits);
  });
}

}  // extern "C"
