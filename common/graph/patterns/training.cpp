#include <string>
#include <vector>

#include "graph/patterns/builders.hpp"
#include "graph/patterns/collectives.hpp"

namespace tofa::patterns {

// One training step of a transformer with Megatron-LM's parallel groups.
// Rank = t + tp x (d + dp x s) for tensor rank t, data rank d, pipeline
// stage s (tensor groups are consecutive ranks, pipeline stages the
// slowest). With A = microbatch x seq x hidden x dtype bytes, per step:
// - each tensor group all-reduces A four times per layer of its stage per
//   micro-batch (attention and MLP, forward and backward);
// - each rank sends A per micro-batch to the same tensor and data rank of
//   the next stage (activations) and A back (gradients);
// - each data group all-reduces its stage's share of the gradients,
//   params / (tp x pp) x dtype bytes.
CommGraph training_pattern(const PatternSpec& spec) {
  spec.allow_only({"tp", "pp", "dp", "layers", "hidden", "seq", "microbatch", "microbatches",
                   "params", "dtype", "allreduce"});
  const long long tp = spec.integer("tp", 1, 1, 1 << 24), pp = spec.integer("pp", 1, 1, 1 << 24),
                  dp = spec.integer("dp", 1, 1, 1 << 24);
  const long long layers = spec.integer("layers", 1, 1 << 20);
  const double hidden = static_cast<double>(spec.integer("hidden", 1, 1 << 24));
  const double seq = static_cast<double>(spec.integer("seq", 1, 1 << 24));
  const double microbatch = static_cast<double>(spec.integer("microbatch", 1, 1, 1 << 24));
  const double microbatches = static_cast<double>(spec.integer("microbatches", 1, 1, 1 << 24));
  const double params = spec.number("params", 12.0 * layers * hidden * hidden);
  const std::string dtype = spec.choice("dtype", {"bf16", "fp16", "fp32"});
  const std::string algorithm = spec.choice("allreduce", {"ring", "recursive-doubling", "binomial"});
  if (layers % pp != 0) spec.fail("layers", "not a multiple of pp=" + std::to_string(pp));
  const long long tasks = tp * pp * dp;
  if (tasks > (1 << 24)) spec.fail("tp", "tp x pp x dp is above 2^24 ranks");
  check_pattern_size(spec, "tp", tasks, tasks * 60);

  const double dtype_bytes = dtype == "fp32" ? 4 : 2;
  const double activation = microbatch * seq * hidden * dtype_bytes;
  const auto rank = [&](long long t, long long d, long long s) {
    return static_cast<int>(t + tp * (d + dp * s));
  };
  std::vector<CommEdge> edges;
  for (long long s = 0; s < pp; ++s)
    for (long long d = 0; d < dp; ++d) {
      Group tensor;
      for (long long t = 0; t < tp; ++t) tensor.push_back(rank(t, d, s));
      allreduce(algorithm,
                {tensor, activation, 4.0 * static_cast<double>(layers / pp) * microbatches, edges});
    }
  for (long long s = 0; s + 1 < pp; ++s)
    for (long long d = 0; d < dp; ++d)
      for (long long t = 0; t < tp; ++t) {
        edges.push_back({rank(t, d, s), rank(t, d, s + 1), activation * microbatches, microbatches});
        edges.push_back({rank(t, d, s + 1), rank(t, d, s), activation * microbatches, microbatches});
      }
  const double gradients = params / static_cast<double>(tp * pp) * dtype_bytes;
  for (long long s = 0; s < pp; ++s)
    for (long long t = 0; t < tp; ++t) {
      Group data;
      for (long long d = 0; d < dp; ++d) data.push_back(rank(t, d, s));
      allreduce(algorithm, {data, gradients, 1, edges});
    }
  return CommGraph::from_directed_edges(static_cast<int>(tasks), edges, Directions::Kept);
}

}  // namespace tofa::patterns
