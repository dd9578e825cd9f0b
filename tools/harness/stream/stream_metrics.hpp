// Per-job quality of a stream's placements: hop-bytes, the seed Bunde's
// average hops and job shapes, abort probability, and a completion-time proxy.
#pragma once

#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "swf.hpp"
#include "topology/topology.hpp"

namespace tofa::harness {

/// Seed Bunde 5.1: a job of p ranks is an x by y stencil, x the largest
/// integer <= sqrt(p) dividing p, y = p / x (so x <= y).
struct JobShape {
  int x = 1;
  int y = 1;
};

/// Throws tofa::Error when tasks < 1. O(sqrt(tasks)).
JobShape bunde_shape(int tasks);

/// Why a job is left out of the mapping evaluation (it is still scheduled).
enum class ShapeSkip {
  None,
  Serial,           ///< one task
  LargerThanMachine ///< y above the machine's largest dimension or x above its second largest
};

/// Seed Bunde 5.1's rule on a machine of any dimension: the seed's machines
/// are square 2D meshes, where this is "x or y exceeds the machine's side";
/// here the shape must fit the two largest dimensions (a 1D machine's second
/// is 1).
ShapeSkip bunde_skip(int tasks, const Topology& topology);
/// "serial", "larger than the machine", "" for None.
std::string to_string(ShapeSkip skip);

/// stencil_graph({x, y}) of the job's shape, `bytes` each way per neighbour.
CommGraph bunde_stencil_graph(int tasks, double bytes = 1.0);

/// The seed Bunde's miniGhost figure: "The application spends about thirty
/// percent of its time communicating."
inline constexpr double kCommunicationShare = 0.3;

struct JobMetrics {
  double hop_bytes = 0;          ///< evaluate_placement's hop_bytes
  double average_hops = 0;       ///< mean hops over communicating pairs (edges), Bunde's metric
  double abort_probability = 0;  ///< expected_abort_probability with the given outages
  double block_hop_bytes = 0;    ///< hop_bytes of block_layout on the same nodes
  /// A proxy, not a model: runtime x (1 + share x (hop_bytes / block_hop_bytes
  /// - 1)) / (1 - abort_probability). The communicating share of the time
  /// scales with hop-bytes relative to Slurm's layout; an abort restarts the
  /// job (geometric number of tries). With block_hop_bytes 0 the ratio is
  /// 1 + hop_bytes / total bytes instead (every hop counts as extra);
  /// infinity when abort_probability is 1.
  double expected_completion = 0;
};

/// Slurm's block layout on the nodes of `task_nodes`: the nodes in order of
/// first appearance, each taking as many consecutive tasks as `task_nodes`
/// puts on it.
std::vector<int> block_layout(const std::vector<int>& task_nodes);

/// The metrics of a job of runtime `runtime` whose task t runs on
/// task_nodes[t]. `outage` has one probability per node or is empty (all 0).
/// Uses evaluate_placement (common/metrics/metrics.hpp) twice. Throws
/// tofa::Error on a placement of the wrong size or with nodes out of range.
JobMetrics job_metrics(double runtime, const CommGraph& graph, const Topology& topology,
                       const std::vector<int>& task_nodes,
                       const std::vector<double>& outage = {},
                       double communication_share = kCommunicationShare);

}  // namespace tofa::harness
