// anneal (seed: Bhanot et al., Optimizing task layout on the Blue Gene/L
// supercomputer): simulated annealing of the free energy F = sum C(i,j) d(i,j)
// from the heuristic map, optionally divided by recursive bisection. The
// parts live in map/anneal/; --param settings are listed in options.hpp.
#include "run.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

class AnnealMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const anneal::AnnealOptions options = anneal::parse_anneal_options(request.parameters);
    return anneal::anneal_placement(request, options).placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_anneal_mapper() { return std::make_unique<AnnealMapper>(); }

}  // namespace tofa
