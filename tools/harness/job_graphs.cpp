#include "harness/job_graphs.hpp"

#include <fstream>

#include "base/error.hpp"
#include "graph/generators.hpp"
#include "graph/graph.hpp"
#include "harness/stream/stream_metrics.hpp"

namespace tofa::harness {

JobGraphs::JobGraphs(std::string pattern, std::string dir, Upload upload)
    : pattern_(std::move(pattern)), dir_(std::move(dir)), upload_(std::move(upload)) {
  if (pattern_ != "stencil" && pattern_ != "chung-mesh" && pattern_ != "power-law")
    throw Error("unknown job pattern '" + pattern_ + "': expected stencil, chung-mesh or power-law");
}

CommGraph JobGraphs::graph(int tasks) const {
  if (pattern_ == "stencil" || tasks < 2) return bunde_stencil_graph(tasks);  // 1 task: no edge
  if (pattern_ == "chung-mesh") {
    const JobShape shape = bunde_shape(tasks);
    return chung_mesh_graph(shape.x, shape.y);
  }
  return power_law_graph(tasks, 0.6, 1.0, static_cast<unsigned>(tasks));
}

const std::string& JobGraphs::id(int tasks) {
  const auto found = ids_.find(tasks);
  if (found != ids_.end()) return found->second;
  const std::string path = dir_ + "/" + pattern_ + "-" + std::to_string(tasks) + ".mtx";
  {
    std::ofstream out(path);
    write_matrix_market(out, graph(tasks));  // its size line names the tasks, edges or none
    if (!out) throw Error("cannot write " + path);
  }
  return ids_[tasks] = upload_(path);
}

}  // namespace tofa::harness
