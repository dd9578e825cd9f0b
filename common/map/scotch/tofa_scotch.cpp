// tofa (seed TOFA, Listing 1.1): Scotch maps the communication graph onto the
// first run of consecutive fault-free candidates when there is one, else onto
// the fault-weighted topology (Equation 1) restricted to the candidates.
#include "scotch_map.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

std::vector<int> all_candidates(const MappingRequest&, const std::vector<int>& candidates, int) {
  return candidates;
}

class TofaMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    return map_fault_free_run_or(request, all_candidates);
  }
};

}  // namespace

std::unique_ptr<Mapper> make_tofa_mapper() { return std::make_unique<TofaMapper>(); }

}  // namespace tofa
