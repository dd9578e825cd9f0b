// A Rubik spec (tofa-rubik, strategy "rubik") on any text; the tree it
// outputs holds every rank once and can be written as a map file.
#include <sstream>

#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "map/rubik/rubik.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(tofa_fuzz::text_of(data, size));
  try {
    const tofa::rubik::Spec spec = tofa::rubik::parse_spec(in, "fuzz");
    const tofa::rubik::Tree& tree = spec.output_tree();
    tree.cell_of_element();
    std::ostringstream out;
    tofa::rubik::write_map_file(out, tree);
  } catch (const tofa::Error&) {
  }
  return 0;
}
