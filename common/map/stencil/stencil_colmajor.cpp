// stencil-colmajor: seed Bunde's COLMAJOR.
#include "linear_order.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Tasks and ranks both numbered y fastest, then x, then z; task k -> rank k.
std::vector<int> colmajor(const stencil::StencilProblem& problem) {
  stencil::LinearOrder order;
  order.nesting = stencil::kColumnMajor;
  return stencil::pair_in_order(stencil::tasks_in_order(problem.job, order.nesting),
                                stencil::ranks_in_order(problem.allocation, order));
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_colmajor_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-colmajor", stencil::Rotation::Apply,
                                                  colmajor);
}

}  // namespace tofa
