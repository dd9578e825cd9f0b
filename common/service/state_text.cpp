#include "service/state_text.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

#include "service/protocol.hpp"
#include "tofa/error.hpp"

namespace tofa::service {

std::string format_number(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::vector<std::pair<int, std::string>> state_lines(const std::string& text,
                                                     const std::string& source,
                                                     const std::string& magic, int version) {
  std::vector<std::pair<int, std::string>> lines;
  std::size_t start = 0;
  int number = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.emplace_back(++number, text.substr(start, end - start));
    start = end + 1;
  }
  const std::string expected = magic + " " + std::to_string(version);
  if (lines.empty() || lines[0].second != expected)
    throw ParseError(source, 1, 1, "expected '" + expected + "'");
  lines.erase(lines.begin());
  return lines;
}

StateLine::StateLine(const std::string& source, int line, const std::string& text)
    : source_(source), line_(line) {
  const std::size_t space = std::min(text.find(' '), text.size());
  kind_ = text.substr(0, space);
  try {
    fields_ = parse_fields(text.substr(space));
  } catch (const Error& e) {
    fail(e.what());
  }
}

void StateLine::fail(const std::string& message) const {
  throw ParseError(source_, line_, 0, message);
}

std::string StateLine::text(const std::string& key) const {
  const auto found = fields_.find(key);
  if (found == fields_.end()) fail("missing field " + key);
  return found->second;
}

double StateLine::number(const std::string& key) const {
  const std::string value = text(key);
  double result = 0;
  auto parsed = std::from_chars(value.data(), value.data() + value.size(), result);
  if (value.empty() || parsed.ec != std::errc() || parsed.ptr != value.data() + value.size() ||
      !std::isfinite(result))
    fail("bad " + key + " '" + value + "': expected a number");
  return result;
}

long long StateLine::integer(const std::string& key, long long low, long long high) const {
  const std::string value = text(key);
  long long result = 0;
  auto parsed = std::from_chars(value.data(), value.data() + value.size(), result);
  if (value.empty() || parsed.ec != std::errc() || parsed.ptr != value.data() + value.size() ||
      result < low || result > high)
    fail("bad " + key + " '" + value + "': expected an integer in " + std::to_string(low) +
         ".." + std::to_string(high));
  return result;
}

}  // namespace tofa::service
