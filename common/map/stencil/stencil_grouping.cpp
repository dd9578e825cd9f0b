// stencil-grouping: seed Bunde's GROUPING (Barrett et al.): one block of the
// job per node.
#include "base/error.hpp"
#include "group_block.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

using stencil::Triple;

/// Blocks numbered x-major (x fastest), tasks inside a block row-major; the
/// k-th task of that order goes to rank k, so with a block of exactly `slots`
/// tasks every node holds one block. No rotation.
std::vector<int> grouping(const stencil::StencilProblem& problem) {
  const Triple& shape = problem.job.dims();
  const std::string given = parameter(*problem.request, "group");
  const Triple block =
      given.empty() ? stencil::group_block(shape, effective_slots(*problem.request))
                    : stencil::parse_shape(given, problem.strategy + ": parameter group");
  for (int axis = 0; axis < 3; ++axis) {
    if (shape[axis] % block[axis] != 0) {
      throw Error(problem.strategy + ": group " + given + " does not divide the job's shape " +
                  std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" +
                  std::to_string(shape[2]));
    }
  }
  const Triple blocks{shape[0] / block[0], shape[1] / block[1], shape[2] / block[2]};
  std::vector<int> tasks;
  tasks.reserve(problem.job.task_count());
  Triple b, p;
  for (b[2] = 0; b[2] < blocks[2]; ++b[2])
    for (b[1] = 0; b[1] < blocks[1]; ++b[1])
      for (b[0] = 0; b[0] < blocks[0]; ++b[0])
        for (p[2] = b[2] * block[2]; p[2] < (b[2] + 1) * block[2]; ++p[2])
          for (p[1] = b[1] * block[1]; p[1] < (b[1] + 1) * block[1]; ++p[1])
            for (p[0] = b[0] * block[0]; p[0] < (b[0] + 1) * block[0]; ++p[0])
              tasks.push_back(problem.job.task_at(p));
  std::vector<int> ranks(tasks.size());
  for (std::size_t k = 0; k < ranks.size(); ++k) ranks[k] = static_cast<int>(k);
  return stencil::pair_in_order(tasks, ranks);
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_grouping_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-grouping", stencil::Rotation::Never,
                                                  grouping);
}

}  // namespace tofa
