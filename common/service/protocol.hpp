// The service's text protocol: "VERB key=value ...\nBODY" requests and
// "OK key=value ...\nBODY" / "ERROR REASON" replies. Values are
// percent-encoded (see encode_value) so they never contain blanks or '='.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tofa::service {

/// The longest first line accepted (the verb and its fields).
constexpr std::size_t kMaxHeaderBytes = 1 << 20;

/// A parsed request or OK reply.
struct Message {
  std::string verb;                           ///< e.g. "PLACE", or "OK" in a reply
  std::map<std::string, std::string> fields;  ///< decoded values
  std::string body;                           ///< everything after the first '\n'

  /// The value of `key`; throws Error "missing field KEY" when absent.
  const std::string& field(const std::string& key) const;
  /// The value of `key`, or `fallback`.
  std::string field_or(const std::string& key, const std::string& fallback) const;
};

/// Parses "VERB k=v k=v\nBODY". Throws Error with a one-line reason on a
/// missing verb, a malformed field, a repeated key, a bad escape or an
/// over-long first line.
Message parse_message(const std::string& text);

/// Builds "VERB k=v ...", adding "\nBODY" when body is not empty.
std::string format_message(const std::string& verb,
                           const std::vector<std::pair<std::string, std::string>>& fields,
                           const std::string& body = "");

/// %XX-escapes '%', '=', bytes <= 0x20 and 0x7f (an empty value is "key=").
std::string encode_value(const std::string& value);
/// Inverse of encode_value; throws Error on a bad escape.
std::string decode_value(const std::string& text);

/// "key=value key=value" fields of one body line (used for table rows).
std::map<std::string, std::string> parse_fields(const std::string& line);

}  // namespace tofa::service
