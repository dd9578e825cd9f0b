#include "graph/patterns/pattern_spec.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/error.hpp"

namespace tofa::patterns {

PatternSpec::PatternSpec(const std::string& text) : text_(text) {
  const std::size_t colon = text.find(':');
  name_ = text.substr(0, colon);
  if (name_.empty()) fail_at(1, "expected a pattern name before ':'");
  if (colon == std::string::npos) return;
  std::size_t start = colon + 1;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(start, end - start);
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == item.size())
      fail_at(start + 1, "expected KEY=VALUE, found '" + item + "'");
    const std::string key = item.substr(0, equals);
    if (settings_.count(key)) fail_at(start + 1, "'" + key + "' given twice");
    settings_[key] = Setting{item.substr(equals + 1), start + 1};
    start = end + 1;
  }
}

void PatternSpec::allow_only(const std::vector<std::string>& known) const {
  for (const auto& [key, setting] : settings_) {
    bool found = false;
    std::string list;
    for (const std::string& k : known) {
      found = found || k == key;
      list += (list.empty() ? "" : ", ") + k;
    }
    if (!found) fail_at(setting.column, "unknown key '" + key + "' for " + name_ + " (keys: " + list + ")");
  }
}

const PatternSpec::Setting& PatternSpec::setting(const std::string& key) const {
  const auto found = settings_.find(key);
  if (found == settings_.end()) fail_at(text_.size() + 1, name_ + " needs " + key + "=...");
  return found->second;
}

void PatternSpec::fail(const std::string& key, const std::string& message) const {
  const Setting& s = setting(key);
  fail_at(s.column, key + "=" + s.value + ": " + message);
}

void PatternSpec::fail_at(std::size_t column, const std::string& message) const {
  throw Error("bad pattern '" + text_ + "' at column " + std::to_string(column) + ": " + message);
}

long long PatternSpec::integer(const std::string& key, long long low, long long high) const {
  const std::string& value = setting(key).value;
  char* end = nullptr;
  const long long number = std::strtoll(value.c_str(), &end, 10);
  if (*end != '\0' || value[0] == '+' || number < low || number > high)
    fail(key, "expected a whole number from " + std::to_string(low) + " to " + std::to_string(high));
  return number;
}

long long PatternSpec::integer(const std::string& key, long long fallback, long long low,
                               long long high) const {
  return has(key) ? integer(key, low, high) : fallback;
}

double PatternSpec::bytes(const std::string& key) const {
  const std::string& value = setting(key).value;
  char* end = nullptr;
  double amount = std::strtod(value.c_str(), &end);
  static const std::string kSuffixes = "KMGT";
  if (*end != '\0') {
    const std::size_t power = kSuffixes.find(*end);
    if (power == std::string::npos || end[1] != '\0')
      fail(key, "expected a size in bytes such as 4096, 64K, 1.5M or 4G");
    amount *= std::pow(1024.0, static_cast<double>(power + 1));
  }
  if (end == value.c_str() || !(amount > 0) || !std::isfinite(amount) || amount > 1e18)
    fail(key, "expected a size in bytes above 0 and at most 1e18");
  return amount;
}

double PatternSpec::bytes(const std::string& key, double fallback) const {
  return has(key) ? bytes(key) : fallback;
}

double PatternSpec::number(const std::string& key, double fallback) const {
  if (!has(key)) return fallback;
  const std::string& value = setting(key).value;
  char* end = nullptr;
  const double number = std::strtod(value.c_str(), &end);
  if (end == value.c_str() || *end != '\0' || !(number > 0) || !(number <= 1e18))
    fail(key, "expected a number above 0 and at most 1e18");
  return number;
}

std::vector<int> PatternSpec::sizes(const std::string& key, int min_count, int max_count) const {
  const std::string& value = setting(key).value;
  std::vector<int> sizes;
  const char* cursor = value.c_str();
  for (;;) {
    char* end = nullptr;
    const long size = std::strtol(cursor, &end, 10);
    if (end == cursor || *cursor == '+' || *cursor == '-' || size < 1 || size > (1 << 24)) break;
    sizes.push_back(static_cast<int>(size));
    if (*end == '\0') {
      if (static_cast<int>(sizes.size()) >= min_count && static_cast<int>(sizes.size()) <= max_count)
        return sizes;
      break;
    }
    if (*end != 'x') break;
    cursor = end + 1;
  }
  static const char* const kExamples[] = {"64", "64x32", "64x32x16"};
  if (min_count == 1 && max_count == 1) fail(key, "expected one positive size, such as 64");
  const std::string count = min_count == max_count ? std::to_string(min_count)
                                                   : std::to_string(min_count) + " to " +
                                                         std::to_string(max_count);
  fail(key, "expected " + count + " positive sizes joined by 'x', such as " +
                kExamples[std::min(max_count, 3) - 1]);
}

bool PatternSpec::flag(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const std::string& value = setting(key).value;
  if (value == "yes" || value == "true" || value == "1") return true;
  if (value == "no" || value == "false" || value == "0") return false;
  fail(key, "expected yes or no");
}

std::string PatternSpec::choice(const std::string& key,
                                const std::vector<std::string>& choices) const {
  if (!has(key)) return choices.front();
  const std::string& value = setting(key).value;
  std::string list;
  for (const std::string& c : choices) {
    if (c == value) return value;
    list += (list.empty() ? "" : ", ") + c;
  }
  fail(key, "expected one of " + list);
}

}  // namespace tofa::patterns
