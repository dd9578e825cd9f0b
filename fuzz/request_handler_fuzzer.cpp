// Authenticated requests: the input is up to 8 request texts separated by NUL
// bytes, sent in turn by root, uid 1000 and uid 1001 to a fresh ServiceState
// (4x4x4 torus, no state directory). Every reply is "OK..." or "ERROR ...".
#include <sstream>

#include "fuzz_check.hpp"
#include "service/request_handler.hpp"
#include "service/service_state.hpp"
#include "service/tofa_conf.hpp"

using namespace tofa::service;

namespace {

const char* const kConf =
    "Dims=4x4x4\nNodeName=n[0-63]\nMaxGraphBytes=20000\nMaxGraphTasks=256\n"
    "MaxGraphsPerUser=2\nPlacementRetention=4\n";

const TofaConf& conf() {
  static const TofaConf parsed = [] {
    std::istringstream in(kConf);
    return parse_tofa_conf(in, "fuzz.conf");
  }();
  return parsed;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ServiceState state(conf().settings, conf().topology, 500, "", [](int, const std::string&) {});
  const std::string input = tofa_fuzz::text_of(data, size);
  const uid_t uids[] = {0, 1000, 1001};
  std::size_t start = 0;
  for (int i = 0; i < 8 && start <= input.size(); ++i) {
    std::size_t end = input.find('\0', start);
    if (end == std::string::npos) end = input.size();
    const std::string reply = handle_request(state, input.substr(start, end - start), uids[i % 3]);
    FUZZ_CHECK(reply.compare(0, 2, "OK") == 0 || reply.compare(0, 6, "ERROR ") == 0,
               "reply is neither OK nor ERROR: " + reply.substr(0, 80));
    FUZZ_CHECK(reply.compare(0, 6, "ERROR ") != 0 || reply.find('\n') == std::string::npos,
               "an ERROR reply has more than one line");
    start = end + 1;
  }
  return 0;
}
