// A whole tofa.conf: the service settings alone (what clients read), then
// settings and topology together (what the service reads).
#include <sstream>

#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "service/tofa_conf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = tofa_fuzz::text_of(data, size);
  try {
    std::istringstream in(text);
    const tofa::service::ServiceSettings settings = tofa::service::parse_service_settings(in, "fuzz");
    for (const std::string& key : tofa::service::service_keys())
      tofa::service::setting_text(settings, key);
  } catch (const tofa::Error&) {
  }
  try {
    std::istringstream in(text);
    tofa::service::parse_tofa_conf(in, "fuzz");
  } catch (const tofa::Error&) {
  }
  return 0;
}
