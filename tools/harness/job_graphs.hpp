// Every job's communication graph: one of the project's pattern generators
// at the job's size (the seed Bunde's stencil by default), uploaded once per
// size through tofa_loadmatrix.so.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "graph/graph.hpp"

namespace tofa::harness {

class JobGraphs {
 public:
  /// `upload(path)` runs srun's --tofa-matrix=path and returns the graph id.
  using Upload = std::function<std::string(const std::string& path)>;

  /// pattern: "stencil" (x by y, x the largest divisor of the task count not
  /// above its square root), "chung-mesh" (the same shape, Chung et al.'s
  /// row broadcasts) or "power-law" (Chung et al.'s, exponent 0.6). Throws
  /// Error on another.
  JobGraphs(std::string pattern, std::string dir, Upload upload);

  /// The graph of a job of `tasks` tasks (built anew: large ones are not kept).
  CommGraph graph(int tasks) const;
  /// Its id in the service, uploaded at the first call for this size.
  const std::string& id(int tasks);
  std::size_t uploaded() const { return ids_.size(); }
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_, dir_;
  Upload upload_;
  std::map<int, std::string> ids_;
};

}  // namespace tofa::harness
