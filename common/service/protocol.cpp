#include "service/protocol.hpp"

#include <cctype>

#include "base/error.hpp"
#include "base/printable.hpp"

namespace tofa::service {
namespace {

bool needs_escape(unsigned char c) { return c <= 0x20 || c == 0x7f || c == '%' || c == '='; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool valid_key(const std::string& key) {
  if (key.empty()) return false;
  for (char c : key)
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
          c == '_'))
      return false;
  return true;
}

std::string excerpt(const std::string& text) {
  const std::string shown = tofa::printable(text.substr(0, 40));
  return text.size() > 40 ? shown + "..." : shown;
}

}  // namespace

const std::string& Message::field(const std::string& key) const {
  const auto found = fields.find(key);
  if (found == fields.end()) throw Error("missing field " + key);
  return found->second;
}

std::string Message::field_or(const std::string& key, const std::string& fallback) const {
  const auto found = fields.find(key);
  return found == fields.end() ? fallback : found->second;
}

std::string encode_value(const std::string& value) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if (needs_escape(byte)) {
      out += '%';
      out += digits[byte >> 4];
      out += digits[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

std::string decode_value(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    const bool complete = i + 2 < text.size();
    const int high = complete ? hex_digit(text[i + 1]) : -1;
    const int low = complete ? hex_digit(text[i + 2]) : -1;
    if (high < 0 || low < 0)
      throw Error("bad escape in '" + excerpt(text) + "': expected %XX");
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

std::map<std::string, std::string> parse_fields(const std::string& line) {
  std::map<std::string, std::string> fields;
  std::size_t pos = 0;
  while ((pos = line.find_first_not_of(' ', pos)) != std::string::npos) {
    const std::size_t end = std::min(line.find(' ', pos), line.size());
    const std::string token = line.substr(pos, end - pos);
    const std::size_t equals = token.find('=');
    const std::string key = token.substr(0, equals);
    if (equals == std::string::npos || !valid_key(key))
      throw Error("expected 'key=value', found '" + excerpt(token) + "'");
    if (!fields.emplace(key, decode_value(token.substr(equals + 1))).second)
      throw Error("field " + key + " is given twice");
    pos = end;
  }
  return fields;
}

Message parse_message(const std::string& text) {
  const std::size_t newline = text.find('\n');
  const std::size_t header_end = newline == std::string::npos ? text.size() : newline;
  if (header_end > kMaxHeaderBytes)
    throw Error("request line of " + std::to_string(header_end) + " bytes exceeds the limit of " +
                std::to_string(kMaxHeaderBytes) + " bytes");
  std::string header = text.substr(0, header_end);
  if (!header.empty() && header.back() == '\r') header.pop_back();
  Message message;
  const std::size_t verb_end = std::min(header.find(' '), header.size());
  message.verb = header.substr(0, verb_end);
  if (message.verb.empty()) throw Error("empty request: expected a verb such as PING");
  for (char c : message.verb)
    if (!std::isupper(static_cast<unsigned char>(c)) && c != '_')
      throw Error("bad verb '" + excerpt(message.verb) + "': expected upper-case letters");
  message.fields = parse_fields(header.substr(verb_end));
  if (newline != std::string::npos) message.body = text.substr(newline + 1);
  return message;
}

std::string format_message(const std::string& verb,
                           const std::vector<std::pair<std::string, std::string>>& fields,
                           const std::string& body) {
  std::string text = verb;
  for (const auto& [key, value] : fields) text += " " + key + "=" + encode_value(value);
  if (!body.empty()) text += "\n" + body;
  return text;
}

}  // namespace tofa::service
