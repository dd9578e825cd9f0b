// stencil-rowmajor: seed Bunde's ROWMAJOR.
#include "linear_order.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Tasks and ranks both numbered x fastest, then y, then z; task k -> rank k.
/// Unlike BASELINE, the ranks are ordered by coordinates, not by allocation.
std::vector<int> rowmajor(const stencil::StencilProblem& problem) {
  stencil::LinearOrder order;
  order.nesting = stencil::kRowMajor;
  return stencil::pair_in_order(stencil::tasks_in_order(problem.job, order.nesting),
                                stencil::ranks_in_order(problem.allocation, order));
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_rowmajor_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-rowmajor", stencil::Rotation::Apply,
                                                  rowmajor);
}

}  // namespace tofa
