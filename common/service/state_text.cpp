#include "service/state_text.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "service/protocol.hpp"

namespace tofa::service {
namespace {

bool parse_double(const std::string& value, double& result) {
  auto parsed = std::from_chars(value.data(), value.data() + value.size(), result);
  return !value.empty() && parsed.ec == std::errc() &&
         parsed.ptr == value.data() + value.size();
}

}  // namespace

std::string state_header(const std::string& kind) {
  return "# tofa-state " + kind + " " + std::to_string(kStateVersion) + "\n";
}

std::optional<int> state_header_version(const std::string& line, const std::string& kind) {
  const std::string prefix = "# tofa-state " + kind + " ";
  if (line.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const std::string digits = line.substr(prefix.size());
  int version = 0;
  auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), version);
  if (digits.empty() || parsed.ec != std::errc() || parsed.ptr != digits.data() + digits.size() ||
      version < 1)
    return std::nullopt;
  return version;
}

std::string format_number(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

double clamp_to_finite(double value) {
  if (std::isnan(value)) return 0;
  const double largest = std::numeric_limits<double>::max();
  if (std::isinf(value)) return value > 0 ? largest : -largest;
  return value;
}

std::string state_number(double value) { return format_number(clamp_to_finite(value)); }

StateLine::StateLine(const std::string& source, int line, const std::string& text)
    : source_(source), line_(line), text_(text) {
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

std::string StateLine::where(const std::string& message) const {
  return source_ + ":" + std::to_string(line_) + ": " + message;
}

std::string StateLine::text(const std::string& key) const {
  const auto found = fields_.find(key);
  if (found == fields_.end()) fail("missing field " + key);
  return found->second;
}

double StateLine::number(const std::string& key) const {
  const std::string value = text(key);
  double result = 0;
  if (!parse_double(value, result) || !std::isfinite(result))
    fail("bad " + key + " '" + value + "': expected a number");
  return result;
}

double StateLine::clamped_number(const std::string& key, LoadNotes& notes) const {
  const std::string value = text(key);
  double result = 0;
  if (!parse_double(value, result)) fail("bad " + key + " '" + value + "': expected a number");
  if (!std::isfinite(result)) {
    result = clamp_to_finite(result);
    notes.push_back(where(key + " '" + value + "' is not finite, read as " +
                          format_number(result)));
  }
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

void parse_state_records(const std::string& text, const std::string& source,
                         const std::string& kind, const std::string& legacy_magic,
                         LoadNotes* notes, const std::function<void(const StateLine&)>& parse) {
  std::size_t start = 0;
  int number = 0;
  while (start < text.size() || number == 0) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (++number == 1) {
      if (line == legacy_magic) continue;
      const std::optional<int> version = state_header_version(line, kind);
      if (!version)
        throw ParseError(source, 1, 0, "expected '# tofa-state " + kind + " " +
                                           std::to_string(kStateVersion) + "' or '" +
                                           legacy_magic + "'");
      if (*version > kStateVersion)
        throw NewerStateFile(source + ": format version " + std::to_string(*version) +
                             ", this tofa reads versions up to " + std::to_string(kStateVersion));
      continue;
    }
    if (line.empty()) continue;
    try {
      parse(StateLine(source, number, line));
    } catch (const ParseError& e) {
      if (notes)
        notes->push_back(e.file() + ":" + std::to_string(e.line()) + ": " + e.message() +
                         "; record skipped");
    } catch (const Error& e) {
      if (notes)
        notes->push_back(source + ":" + std::to_string(number) + ": " + e.what() +
                         "; record skipped");
    }
  }
}

}  // namespace tofa::service
