// mims (seed Chung et al.): pack tasks into packs of k = slots per node with
// minimum MIMS, then place the packs, as super-tasks one per node, with
// another strategy (parameter place=NAME, default "tofa"; the other request
// fields pass through unchanged, so faults and candidates still count).
//
// Parameters: place=NAME, pack-size=K (1 <= K <= slots; default slots).
#include <string>

#include "base/error.hpp"
#include "map/mims/mims.hpp"
#include "strategies.hpp"

namespace tofa {
namespace {

int pack_size_of(const MappingRequest& request, int slots) {
  const std::string text = parameter(request, "pack-size");
  if (text.empty()) return slots;
  std::size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < 1 || value > slots) {
    throw Error("mims: pack-size must be an integer from 1 to the " + std::to_string(slots) +
                " slots per node, got '" + text + "'");
  }
  return value;
}

class MimsMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const int slots = check_capacity(request).slots;
    const std::string place = parameter(request, "place", "tofa");
    if (place == "mims") throw Error("mims: place=mims would pack the packs again; name another strategy");
    auto placer = make_mapper(place);

    const Packing packing = mims_packing(*request.graph, pack_size_of(request, slots));
    const CommGraph packs = pack_graph(*request.graph, packing);
    MappingRequest inner = request;
    inner.graph = &packs;
    inner.slots_per_node = 1;
    const Placement node_of_pack = placer->map(inner);

    Placement placement(request.graph->task_count());
    for (std::size_t task = 0; task < placement.size(); ++task)
      placement[task] = node_of_pack.at(packing.pack_of[task]);
    check_placement(request, placement);
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_mims_mapper() { return std::make_unique<MimsMapper>(); }

}  // namespace tofa
