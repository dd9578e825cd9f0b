// The service protocol's text layer: a request's first line and fields, and
// the percent-encoding of values (decode(encode(v)) == v for every value).
#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "service/protocol.hpp"

using namespace tofa::service;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text = tofa_fuzz::text_of(data, size);
  try {
    const Message message = parse_message(text);
    std::vector<std::pair<std::string, std::string>> fields(message.fields.begin(),
                                                            message.fields.end());
    const Message again = parse_message(format_message(message.verb, fields, message.body));
    FUZZ_CHECK(again.verb == message.verb && again.fields == message.fields,
               "a formatted message parses differently");
  } catch (const tofa::Error&) {
  }
  try {
    parse_fields(text);
  } catch (const tofa::Error&) {
  }
  FUZZ_CHECK(decode_value(encode_value(text)) == text, "decode(encode(value)) != value");
  return 0;
}
