// The machine the at-scale benches place jobs on: a torus half busy in
// box-shaped allocations, a few failing idle nodes (bench_at_scale,
// bench_scheduler_path).
#pragma once

#include <algorithm>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "topology/topology.hpp"

namespace tofa_bench {

inline std::vector<int> parse_list(const std::string& text) {
  std::vector<int> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stoi(item));
  return values;
}

struct Machine {
  tofa::Topology topology;
  std::vector<int> idle;                ///< the candidates, in id order
  std::vector<double> outage;           ///< p on `failing` idle nodes
  std::vector<std::vector<int>> boxes;  ///< the running jobs' nodes, first dimension fastest
};

/// Half the nodes busy in boxes of 1 to max_box nodes a side at random
/// free spots (seeded), as jobs on a torus leave them.
inline std::vector<std::vector<int>> busy_boxes(const tofa::Topology& topology, int max_box,
                                                unsigned seed) {
  std::mt19937 engine(seed);
  const std::vector<int>& dims = topology.dims();
  std::vector<bool> busy(topology.node_count(), false);
  std::vector<std::vector<int>> boxes;
  int used = 0;
  std::vector<int> side(dims.size()), origin(dims.size()), at(dims.size());
  while (used < topology.node_count() / 2) {
    for (std::size_t d = 0; d < dims.size(); ++d) {
      side[d] = 1 + static_cast<int>(engine() % static_cast<unsigned>(std::min(max_box, dims[d])));
      origin[d] = static_cast<int>(engine() % static_cast<unsigned>(dims[d]));
    }
    std::vector<int> box;
    std::fill(at.begin(), at.end(), 0);
    for (bool more = true; more;) {
      std::vector<int> coords(dims.size());
      for (std::size_t d = 0; d < dims.size(); ++d) coords[d] = (origin[d] + at[d]) % dims[d];
      box.push_back(topology.node_at(coords));
      more = false;
      for (std::size_t d = 0; d < dims.size() && !more; ++d) {
        if (++at[d] < side[d]) more = true;
        else at[d] = 0;
      }
    }
    if (std::any_of(box.begin(), box.end(), [&](int node) { return busy[node]; })) continue;
    for (int node : box) busy[node] = true;
    used += static_cast<int>(box.size());
    boxes.push_back(std::move(box));
  }
  return boxes;
}

/// `torus` ("64x32x32") half busy in boxes (seed 7), `failing` idle nodes at
/// p = 0.02 (seed 2024).
inline Machine build_machine(const std::string& torus, int max_box, int failing) {
  Machine m{tofa::Topology::from_spec("torus:" + torus), {}, {}, {}};
  m.boxes = busy_boxes(m.topology, max_box, 7);
  std::vector<bool> busy(m.topology.node_count(), false);
  for (const std::vector<int>& box : m.boxes)
    for (int node : box) busy[node] = true;
  for (int node = 0; node < m.topology.node_count(); ++node)
    if (!busy[node]) m.idle.push_back(node);
  std::vector<int> shuffled = m.idle;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(2024));
  m.outage.assign(m.topology.node_count(), 0.0);
  for (int i = 0; i < failing && i < static_cast<int>(shuffled.size()); ++i)
    m.outage[shuffled[i]] = 0.02;
  return m;
}

}  // namespace tofa_bench
