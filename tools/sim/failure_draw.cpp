// The seed's failure model: which nodes may fail, which do, who aborts.
#include "failure_draw.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "base/error.hpp"

namespace tofa::sim {

std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t bound) {
  if (bound == 0) throw Error("draw_below: the bound must be at least 1");
  // Outputs below 2^64 mod bound would make the low values more likely.
  const std::uint64_t reject_below = (0 - bound) % bound;
  while (true) {
    const std::uint64_t value = rng();
    if (value >= reject_below) return value % bound;
  }
}

double draw_unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

namespace {

void check_probability(double p) {
  if (!(p >= 0 && p <= 1)) throw Error("p_f = " + std::to_string(p) + ": expected 0..1");
}

/// Instance seeds from `rng`, then each instance's first draw.
void draw_instances(BatchDraw& batch, std::mt19937_64& rng, double p, int instances) {
  batch.instance_seeds.resize(instances);
  for (auto& instance_seed : batch.instance_seeds) instance_seed = rng();
  batch.failed.resize(instances);
  for (int k = 0; k < instances; ++k) {
    std::mt19937_64 instance_rng(batch.instance_seeds[k]);
    batch.failed[k] = draw_failed(instance_rng, batch.outage_nodes, p);
  }
}

}  // namespace

BatchDraw draw_batch(int node_count, const FailureModel& model, int instances, std::uint64_t seed) {
  if (node_count < 1) throw Error("a failure draw needs at least one node");
  if (model.failing_nodes < 0 || model.failing_nodes > node_count)
    throw Error("n_f = " + std::to_string(model.failing_nodes) + " failing nodes: expected 0.." +
                std::to_string(node_count));
  check_probability(model.outage_probability);
  if (instances < 0) throw Error("a batch cannot have a negative number of instances");

  BatchDraw batch;
  batch.seed = seed;
  std::mt19937_64 rng(seed);
  std::vector<int> ids(node_count);
  std::iota(ids.begin(), ids.end(), 0);
  for (int i = 0; i < model.failing_nodes; ++i) {
    const auto j =
        i + static_cast<int>(draw_below(rng, static_cast<std::uint64_t>(node_count - i)));
    std::swap(ids[i], ids[j]);
  }
  batch.outage_nodes.assign(ids.begin(), ids.begin() + model.failing_nodes);
  std::sort(batch.outage_nodes.begin(), batch.outage_nodes.end());

  draw_instances(batch, rng, model.outage_probability, instances);
  return batch;
}

BatchDraw draw_batch_on(const std::vector<int>& outage_nodes, double outage_probability,
                        int instances, std::uint64_t seed) {
  check_probability(outage_probability);
  if (instances < 0) throw Error("a batch cannot have a negative number of instances");
  BatchDraw batch;
  batch.seed = seed;
  batch.outage_nodes = outage_nodes;
  std::sort(batch.outage_nodes.begin(), batch.outage_nodes.end());
  for (std::size_t i = 0; i < batch.outage_nodes.size(); ++i)
    if (batch.outage_nodes[i] < 0 || (i > 0 && batch.outage_nodes[i] == batch.outage_nodes[i - 1]))
      throw Error("outage node " + std::to_string(batch.outage_nodes[i]) +
                  (batch.outage_nodes[i] < 0 ? " is negative" : " is given twice"));
  std::mt19937_64 rng(seed);
  draw_instances(batch, rng, outage_probability, instances);
  return batch;
}

std::vector<int> draw_failed(std::mt19937_64& rng, const std::vector<int>& outage_nodes,
                             double outage_probability) {
  std::vector<int> failed;
  for (int node : outage_nodes)
    if (draw_unit(rng) < outage_probability) failed.push_back(node);
  return failed;
}

std::vector<std::uint64_t> batch_seeds(std::uint64_t master, int count) {
  if (count < 0) throw Error("cannot draw a negative number of batch seeds");
  std::mt19937_64 rng(master);
  std::vector<std::uint64_t> seeds(count);
  for (auto& seed : seeds) seed = rng();
  return seeds;
}

std::vector<char> nodes_in_use(const Topology& topology, const CommGraph& graph,
                               const std::vector<int>& placement) {
  if (static_cast<int>(placement.size()) != graph.task_count())
    throw Error("placement has " + std::to_string(placement.size()) + " tasks, the graph " +
                std::to_string(graph.task_count()));
  std::vector<char> in_use(topology.node_count(), 0);
  for (int node : placement) {
    if (node < 0 || node >= topology.node_count())
      throw Error("placement names node " + std::to_string(node) + ", outside 0.." +
                  std::to_string(topology.node_count() - 1));
    in_use[node] = 1;
  }
  const auto& offsets = graph.offsets();
  const auto& adjacency = graph.adjacency();
  std::vector<int> path;
  for (int a = 0; a < graph.task_count(); ++a) {
    for (std::int64_t k = offsets[a]; k < offsets[a + 1]; ++k) {
      const int b = adjacency[k];
      if (b <= a || placement[a] == placement[b]) continue;
      // Both directions: R(u,v) and R(v,u) differ across dimensions and at
      // a ring's halfway point.
      for (const auto& [from, to] :
           {std::pair{placement[a], placement[b]}, std::pair{placement[b], placement[a]}}) {
        topology.route_nodes(from, to, path);
        for (int node : path) in_use[node] = 1;
      }
    }
  }
  return in_use;
}

int abort_cause(const std::vector<char>& in_use, const std::vector<int>& failed) {
  for (int node : failed) {
    if (node < 0 || node >= static_cast<int>(in_use.size()))
      throw Error("failed node " + std::to_string(node) + " is outside 0.." +
                  std::to_string(static_cast<int>(in_use.size()) - 1));
    if (in_use[node]) return node;
  }
  return -1;
}

}  // namespace tofa::sim
