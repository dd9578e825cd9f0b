// tofa::parse_topology (the topology lines of tofa.conf) on any text; every
// node of a topology it accepts must be found again by its name.
#include <sstream>

#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "topology/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(tofa_fuzz::text_of(data, size));
  try {
    const tofa::Topology topology = tofa::parse_topology(in, "fuzz");
    for (int node = 0; node < topology.node_count() && node < 4096; ++node)
      FUZZ_CHECK(topology.node_by_name(topology.node_name(node)) == node,
                 "node " + std::to_string(node) + " is not found by its name");
  } catch (const tofa::Error&) {
  }
  return 0;
}
