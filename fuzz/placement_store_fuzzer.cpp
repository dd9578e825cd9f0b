// The placement state file (placements.state): what parses writes back the
// same after one round trip, and the retention bounds the records kept.
#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "service/placement_store.hpp"

using tofa::service::PlacementStore;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const PlacementStore store = PlacementStore::parse(tofa_fuzz::text_of(data, size), "fuzz", 8);
    FUZZ_CHECK(store.size() <= 8, "more records kept than the retention");
    const std::string text = store.to_text();
    FUZZ_CHECK(PlacementStore::parse(text, "written", 8).to_text() == text,
               "placements.state changes on a round trip");
  } catch (const tofa::Error&) {
  }
  return 0;
}
