// The whole mapping path: a random small torus or mesh, a random candidate
// list, a random outage vector and a random communication graph, mapped by
// a registered strategy the input picks. The strategy may refuse with tofa::Error; any
// other exception, a crash or a placement check_placement rejects is a finding.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "map/mapper.hpp"

namespace {

tofa::Topology make_topology(FuzzedDataProvider& in) {
  const int dimension_count = in.ConsumeIntegralInRange(1, 3);
  std::vector<int> dims;
  std::vector<bool> wrap;
  for (int d = 0; d < dimension_count; ++d) {
    dims.push_back(in.ConsumeIntegralInRange(1, 5));
    wrap.push_back(in.ConsumeBool());
  }
  return tofa::Topology(dims, wrap, in.ConsumeIntegralInRange(1, 4));
}

/// Empty (all nodes) or a subset of the nodes in a shuffled order.
std::vector<int> make_candidates(FuzzedDataProvider& in, int node_count) {
  std::vector<int> candidates;
  if (in.ConsumeBool()) return candidates;
  for (int node = 0; node < node_count; ++node)
    if (in.ConsumeBool()) candidates.push_back(node);
  for (std::size_t i = candidates.size(); i > 1; --i)
    std::swap(candidates[i - 1], candidates[in.ConsumeIntegralInRange<std::size_t>(0, i - 1)]);
  return candidates;
}

std::vector<double> make_outage(FuzzedDataProvider& in, int node_count) {
  std::vector<double> outage;
  if (in.ConsumeBool()) return outage;
  const double levels[] = {0, 0, 0, 1e-3, 0.1, 0.5, 1};
  for (int node = 0; node < node_count; ++node)
    outage.push_back(levels[in.ConsumeIntegralInRange(0, 6)]);
  return outage;
}

tofa::CommGraph make_graph(FuzzedDataProvider& in, int tasks) {
  std::vector<tofa::CommEdge> edges(in.ConsumeIntegralInRange(0, 3 * tasks));
  for (tofa::CommEdge& edge : edges) {
    edge.from = in.ConsumeIntegralInRange(0, tasks - 1);
    edge.to = in.ConsumeIntegralInRange(0, tasks - 1);
    edge.bytes = in.ConsumeIntegralInRange(1, 1 << 20);
    edge.messages = in.ConsumeIntegralInRange(0, 100);
  }
  return tofa::CommGraph::from_directed_edges(tasks, edges);
}

/// Anneal at its defaults takes ~0.1 s per small job under the sanitizers;
/// a bounded effort keeps the fuzzer at many jobs per second, and the start
/// and division modes are fuzzed too ("start=scotch" is left out: Scotch is
/// reached through the "tofa" strategy). Budgets of 0.1 and 0.5 ms: the
/// same code runs as with more, fewer sweeps of it; anneal inputs take ~2 ms
/// under the sanitizers (~4 ms at 0.5 and 2 ms, fuzz-long's bottleneck).
void add_anneal_parameters(FuzzedDataProvider& in, tofa::MappingRequest& request) {
  const char* const starts[] = {"grow", "heuristic", "basic", "rank", "random"};
  const char* const divides[] = {"auto", "no", "yes"};
  request.parameters["start"] = starts[in.ConsumeIntegralInRange(0, 4)];
  request.parameters["divide"] = divides[in.ConsumeIntegralInRange(0, 2)];
  request.parameters["attempts"] = "1";
  request.parameters["iterations"] = std::to_string(in.ConsumeIntegralInRange(1, 30));
  request.parameters["steps"] = std::to_string(in.ConsumeIntegralInRange(1, 4));
  request.parameters["faulty"] = in.ConsumeBool() ? "avoid" : "ignore";
  request.parameters["progress"] = "no";
  request.parameters["budget"] = in.ConsumeBool() ? "0.0001" : "0.0005";  // auto's and anneal's
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  // One strategy per input (the input picks it): all of them on every input
  // ran ~40 inputs per second under the sanitizers.
  const std::vector<tofa::MapperInfo>& strategies = tofa::mapper_table();
  const tofa::MapperInfo& info = strategies[in.ConsumeIntegralInRange<std::size_t>(0, strategies.size() - 1)];
  const tofa::Topology topology = make_topology(in);
  tofa::MappingRequest request;
  request.topology = &topology;
  request.slots_per_node = in.ConsumeIntegralInRange(0, 4);
  request.candidate_nodes = make_candidates(in, topology.node_count());
  request.outage = make_outage(in, topology.node_count());
  request.seed = in.ConsumeIntegral<std::uint64_t>();
  const int slots = request.slots_per_node > 0 ? request.slots_per_node : topology.cores_per_node();
  const int candidate_count = request.candidate_nodes.empty()
                                  ? topology.node_count()
                                  : static_cast<int>(request.candidate_nodes.size());
  // Usually a job that fits; sometimes one slot too many (strategies must refuse it).
  const int capacity = std::min(64, slots * candidate_count + 1);
  const int tasks = in.ConsumeIntegralInRange(1, capacity);
  if (in.ConsumeBool()) {
    const int x = in.ConsumeIntegralInRange(1, 4), y = in.ConsumeIntegralInRange(1, 4);
    request.parameters["stencil"] = std::to_string(x) + "x" + std::to_string(y) + "x" +
                                    std::to_string(std::max(1, tasks / (x * y)));
  }
  if (in.ConsumeBool()) request.parameters["place"] = "greedy";
  add_anneal_parameters(in, request);
  const tofa::CommGraph graph = make_graph(in, tasks);
  request.graph = &graph;

  tofa::Placement placement;
  try {
    placement = info.create()->map(request);
  } catch (const tofa::Error&) {
    return 0;
  }
  try {
    tofa::check_placement(request, placement);
  } catch (const tofa::Error& e) {
    FUZZ_CHECK(false, std::string(info.name) + " returned an invalid placement: " + e.what());
  }
  return 0;
}
