#include "map/scotch/scotch_objects.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "base/error.hpp"

namespace tofa {
namespace scotch {
namespace {

constexpr double kMaxEdgeWeight = 1 << 16;
// Scotch adds up edge weight * terminal distance in 32-bit integers; keep the
// sum over all edges below this.
constexpr double kCostBudget = 1 << 29;

}  // namespace

Lock lock() {
  static std::mutex mutex;
  return Lock(mutex);
}

void check(int rc, const char* call) {
  if (rc != 0) {
    throw Error(std::string("Scotch call ") + call + " failed (return code " +
                std::to_string(rc) + ")");
  }
}

Arch::Arch() { check(SCOTCH_archInit(&arch_), "SCOTCH_archInit"); }
Arch::~Arch() { SCOTCH_archExit(&arch_); }

Strat::Strat() { check(SCOTCH_stratInit(&strat_), "SCOTCH_stratInit"); }
Strat::~Strat() { SCOTCH_stratExit(&strat_); }

SCOTCH_Strat* map_strategy(SCOTCH_Num flags, SCOTCH_Num parts, double balance, const Lock&) {
  constexpr std::size_t kStrategyEntries = 256;
  using Key = std::tuple<SCOTCH_Num, SCOTCH_Num, double>;
  static std::map<Key, std::unique_ptr<Strat>> strategies;
  const Key key(flags, parts, balance);
  const auto found = strategies.find(key);
  if (found != strategies.end()) return found->second->get();
  if (strategies.size() >= kStrategyEntries) strategies.clear();
  auto built = std::make_unique<Strat>();
  check(SCOTCH_stratGraphMapBuild(built->get(), flags, parts, balance), "SCOTCH_stratGraphMapBuild");
  return strategies.emplace(key, std::move(built)).first->second->get();
}

Graph weighted_graph(const CommGraph& graph, long long max_distance) {
  double heaviest = 0;
  double total = 0;
  for (double bytes : graph.bytes()) {
    heaviest = std::max(heaviest, bytes);
    total += bytes;
  }
  double scale = heaviest > 0 ? kMaxEdgeWeight / heaviest : 0;
  if (total > 0) scale = std::min(scale, kCostBudget / std::max(1LL, max_distance) / total);

  std::vector<SCOTCH_Num> offsets{0};
  std::vector<SCOTCH_Num> adjacency;
  std::vector<SCOTCH_Num> weights;
  for (int task = 0; task < graph.task_count(); ++task) {
    for (auto k = graph.offsets()[task]; k < graph.offsets()[task + 1]; ++k) {
      if (!(graph.bytes()[k] > 0)) continue;
      adjacency.push_back(graph.adjacency()[k]);
      weights.push_back(static_cast<SCOTCH_Num>(
          std::clamp(std::llround(graph.bytes()[k] * scale), 1LL, 1LL << 16)));
    }
    offsets.push_back(static_cast<SCOTCH_Num>(adjacency.size()));
  }
  return Graph(std::move(offsets), std::move(adjacency), std::move(weights));
}

Graph::Graph(std::vector<SCOTCH_Num> offsets, std::vector<SCOTCH_Num> adjacency,
             std::vector<SCOTCH_Num> weights)
    : offsets_(std::move(offsets)), adjacency_(std::move(adjacency)), weights_(std::move(weights)) {
  check(SCOTCH_graphInit(&graph_), "SCOTCH_graphInit");
  const int rc = SCOTCH_graphBuild(&graph_, 0, vertex_count(), offsets_.data(), nullptr, nullptr,
                                   nullptr, static_cast<SCOTCH_Num>(adjacency_.size()),
                                   adjacency_.data(), weights_.data());
  if (rc != 0) SCOTCH_graphExit(&graph_);
  check(rc, "SCOTCH_graphBuild");
}

Graph::~Graph() { SCOTCH_graphExit(&graph_); }

SingleThreadGraph::SingleThreadGraph(Graph& graph, SCOTCH_Num seed) {
  check(SCOTCH_contextInit(&context_), "SCOTCH_contextInit");
  int rc = SCOTCH_contextThreadSpawn(&context_, 1, nullptr);
  const char* call = "SCOTCH_contextThreadSpawn";
  if (rc == 0) {
    rc = SCOTCH_contextOptionSetNum(&context_, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
    call = "SCOTCH_contextOptionSetNum";
  }
  if (rc == 0) {
    SCOTCH_contextRandomSeed(&context_, seed);
    rc = SCOTCH_contextBindGraph(&context_, graph.get(), &bound_);
    call = "SCOTCH_contextBindGraph";
  }
  if (rc != 0) {
    SCOTCH_contextExit(&context_);
    check(rc, call);
  }
}

SingleThreadGraph::~SingleThreadGraph() {
  SCOTCH_graphExit(&bound_);
  SCOTCH_contextExit(&context_);
}

}  // namespace scotch
}  // namespace tofa
