// rubik (seed Bhatele et al.): the layout a Rubik spec describes (parameter
// spec=FILE; tofa-map --param spec=FILE). The spec's output tree is the
// network box; its ranks must be the graph's tasks. Rubik is a tool for
// hand-made layouts: it ignores outages, and a layout that uses a node
// outside the candidates is an error, not silently repaired.
#include "base/error.hpp"
#include "map/rubik/rubik.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

class RubikMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    check_capacity(request);
    const std::string path = parameter(request, "spec");
    if (path.empty()) throw Error("rubik: name the spec file with the parameter spec=FILE");
    const rubik::Spec spec = rubik::read_spec(path);
    const rubik::Tree& network = spec.output_tree();
    const int tasks = request.graph->task_count();
    if (network.size() != tasks) {
      throw Error("rubik: " + path + " lays out " + std::to_string(network.size()) +
                  " ranks (box '" + spec.output + "'), but the graph has " +
                  std::to_string(tasks) + " tasks");
    }
    const Placement placement = rubik::placement_on(network, *request.topology, effective_slots(request));
    check_placement(request, placement);
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_rubik_mapper() { return std::make_unique<RubikMapper>(); }

}  // namespace tofa
