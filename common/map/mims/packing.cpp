// Algorithm 1 of seed Chung et al.: greedy MIMS packing, plus the MIMS metric
// and the graph of packs.
//
// Optimality (exact feasibility test): let t be the optimum MIMS. Every pack
// the greedy forms from edges heavier than t lies inside one connected
// component of those edges, and those components can be packed (an optimal
// packing does it), so no such merge is ever refused; the final packing is
// feasible, hence every cut edge weighs at most t.
#include <algorithm>
#include <numeric>
#include <string>

#include "base/error.hpp"
#include "bin_packing.hpp"
#include "map/mims/mims.hpp"

namespace tofa {
namespace {

class DisjointSets {
 public:
  explicit DisjointSets(int count) : parent_(count), size_(count, 1) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  int find(int item) {
    while (parent_[item] != item) {
      parent_[item] = parent_[parent_[item]];
      item = parent_[item];
    }
    return item;
  }
  int size(int root) const { return size_[root]; }
  void join(int a, int b) {  // roots
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
  }

 private:
  std::vector<int> parent_;
  std::vector<int> size_;
};

}  // namespace

bool mims_packing_is_optimal(int pack_size) { return bin_packing::has_exact_test(pack_size); }

Packing mims_packing(const CommGraph& graph, int pack_size) {
  if (pack_size < 1) throw Error("pack size must be at least 1, got " + std::to_string(pack_size));
  const int tasks = graph.task_count();
  Packing packing;
  packing.pack_size = pack_size;
  packing.optimal = mims_packing_is_optimal(pack_size);
  packing.pack_count = (tasks + pack_size - 1) / pack_size;
  const std::int64_t bins = packing.pack_count;
  const std::int64_t padding = bins * pack_size - tasks;  // empty singletons that fill the last bin

  // Step 1: pairs by decreasing bytes.
  std::vector<CommEdge> pairs = graph.undirected_edges();
  pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                             [](const CommEdge& e) { return !(e.bytes > 0); }),
              pairs.end());
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const CommEdge& a, const CommEdge& b) { return a.bytes > b.bytes; });

  // Step 2: merge the pair's packs when the packs can still fill the bins.
  DisjointSets packs(tasks);
  bin_packing::Histogram histogram(pack_size + 1, 0);
  histogram[1] = tasks + padding;
  for (const CommEdge& pair : pairs) {
    const int a = packs.find(pair.from);
    const int b = packs.find(pair.to);
    if (a == b) continue;
    const int size_a = packs.size(a), size_b = packs.size(b);
    if (size_a + size_b > pack_size) continue;
    --histogram[size_a];
    --histogram[size_b];
    ++histogram[size_a + size_b];
    if (bin_packing::fits(histogram, pack_size, bins)) {
      packs.join(a, b);
    } else {
      ++histogram[size_a];
      ++histogram[size_b];
      --histogram[size_a + size_b];
    }
  }

  // Step 3: combine the packs into bins. Packs of each size wait in order of
  // their lowest task (tasks are visited in id order); the padding singletons
  // come after the real ones.
  std::vector<std::vector<int>> waiting(pack_size + 1);  // pack roots per size
  std::vector<std::size_t> next(pack_size + 1, 0);
  std::vector<char> queued(tasks, 0);
  for (int task = 0; task < tasks; ++task) {
    const int root = packs.find(task);
    if (queued[root]) continue;
    queued[root] = 1;
    waiting[packs.size(root)].push_back(root);
  }
  std::vector<int> bin_of_root(tasks, -1);
  const std::vector<std::vector<int>> bin_sizes = bin_packing::fill_bins(histogram, pack_size, bins);
  for (std::size_t bin = 0; bin < bin_sizes.size(); ++bin) {
    for (int size : bin_sizes[bin]) {
      if (next[size] < waiting[size].size()) bin_of_root[waiting[size][next[size]++]] = static_cast<int>(bin);
      // else: a padding singleton, nothing to place
    }
  }

  // Number the bins by their lowest task.
  std::vector<int> number(bins, -1);
  int numbered = 0;
  packing.pack_of.assign(tasks, -1);
  for (int task = 0; task < tasks; ++task) {
    const int bin = bin_of_root[packs.find(task)];
    if (number[bin] < 0) number[bin] = numbered++;
    packing.pack_of[task] = number[bin];
  }
  if (numbered != packing.pack_count) {
    throw Error("internal error: MIMS packing filled " + std::to_string(numbered) + " of " +
                std::to_string(packing.pack_count) + " packs");
  }
  packing.mims = mims(graph, packing.pack_of);
  return packing;
}

CommGraph pack_graph(const CommGraph& graph, const Packing& packing) {
  if (packing.pack_of.size() != static_cast<std::size_t>(graph.task_count())) {
    throw Error("packing has " + std::to_string(packing.pack_of.size()) +
                " entries, expected one per task (" + std::to_string(graph.task_count()) + ")");
  }
  std::vector<CommEdge> between;
  for (const CommEdge& edge : graph.undirected_edges()) {
    const int a = packing.pack_of[edge.from], b = packing.pack_of[edge.to];
    if (a != b) between.push_back({a, b, edge.bytes, edge.messages});
  }
  return CommGraph::from_directed_edges(packing.pack_count, between);
}

}  // namespace tofa
