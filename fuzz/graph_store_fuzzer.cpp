// The graph index state file (graphs.state): what parses writes back the
// same after one round trip.
#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "service/graph_store.hpp"

using namespace tofa::service;

namespace {

std::string index_of(const std::vector<GraphRecord>& records, long long next) {
  GraphStore store;
  for (const GraphRecord& record : records) store.insert(record);
  store.set_next(next);
  return store.index_text();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    long long next = 0;
    const std::vector<GraphRecord> records =
        GraphStore::parse_index(tofa_fuzz::text_of(data, size), "fuzz", next);
    const std::string text = index_of(records, next);
    long long next_again = 0;
    const std::vector<GraphRecord> again = GraphStore::parse_index(text, "written", next_again);
    FUZZ_CHECK(index_of(again, next_again) == text, "graphs.state changes on a round trip");
  } catch (const tofa::Error&) {
  }
  return 0;
}
