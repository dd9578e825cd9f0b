// A faults file (tofa-map --faults) for a 4x4 torus of nodes n0..n15: the
// probabilities it yields are one per node, each in [0, 1].
#include <sstream>

#include "base/error.hpp"
#include "faults/faults.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const tofa::Topology topology = tofa::Topology::from_spec("torus:4x4");
  std::istringstream in(tofa_fuzz::text_of(data, size));
  try {
    const std::vector<double> outage = tofa::parse_faults(in, "fuzz", topology);
    FUZZ_CHECK(outage.size() == static_cast<std::size_t>(topology.node_count()),
               "not one probability per node");
    for (double p : outage) FUZZ_CHECK(p >= 0 && p <= 1, "probability outside [0, 1]");
  } catch (const tofa::Error&) {
  }
  return 0;
}
