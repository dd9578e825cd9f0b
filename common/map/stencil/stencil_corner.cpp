// stencil-corner: seed Bunde's CORNER (after Bhatele et al.'s "expand from corner").
#include "corner_order.hpp"
#include "problem.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

/// Tasks and ranks both ordered by distance from the (0,0,0) corner (of the
/// job, of the allocation's bounding box), ties by z, y, x; task k -> rank k.
std::vector<int> corner(const stencil::StencilProblem& problem) {
  return stencil::pair_in_order(stencil::tasks_from_corner(problem.job, 0),
                                stencil::ranks_from_corner(problem.allocation, 0));
}

}  // namespace

std::unique_ptr<Mapper> make_stencil_corner_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-corner", stencil::Rotation::Apply,
                                                  corner);
}

}  // namespace tofa
