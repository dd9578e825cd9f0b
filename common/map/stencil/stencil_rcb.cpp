// stencil-rcb: seed Bunde's RCB, recursive coordinate bisection of both the
// job and its ranks (the seed's best strategy).
#include "problem.hpp"
#include "rcb.hpp"
#include "strategies.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_stencil_rcb_mapper() {
  return std::make_unique<stencil::StencilMapper>("stencil-rcb", stencil::Rotation::Apply,
                                                  stencil::rcb_assignment);
}

}  // namespace tofa
