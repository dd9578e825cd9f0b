// The node health state file (nodes.state): what parses writes back the same
// after one round trip.
#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "service/node_health.hpp"

using tofa::service::NodeHealth;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const std::string text = NodeHealth::parse(tofa_fuzz::text_of(data, size), "fuzz").to_text();
    FUZZ_CHECK(NodeHealth::parse(text, "written").to_text() == text,
               "nodes.state changes on a round trip");
  } catch (const tofa::Error&) {
  }
  return 0;
}
