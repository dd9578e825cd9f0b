// tofa::expand_hostlist on any text: no name it returns is empty.
#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "topology/topology.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    for (const std::string& name : tofa::expand_hostlist(tofa_fuzz::text_of(data, size)))
      FUZZ_CHECK(!name.empty(), "empty host name");
  } catch (const tofa::Error&) {
  }
  return 0;
}
