// stencil-rcb: seed Bunde's RCB, recursive coordinate bisection of both the
// job and its ranks (the seed's best strategy).
#include "stencil/problem.hpp"
#include "stencil/rcb.hpp"
#include "strategies_stencil.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_stencil_rcb_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-rcb", stencil::Rotation::Apply,
                                                  stencil::rcb_assignment);
}

}  // namespace tofa
