// Helpers shared by the state file formats: versioned headers, numbers that
// read back exactly, and line-numbered errors.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tofa::service {

/// Shortest text that reads back to the same double (locale independent).
std::string format_number(double value);

/// Splits a state file into lines, checks the first is "MAGIC VERSION" and
/// returns the rest with their 1-based line numbers. Throws ParseError.
std::vector<std::pair<int, std::string>> state_lines(const std::string& text,
                                                     const std::string& source,
                                                     const std::string& magic, int version);

/// Reads one field of a "kind k=v ..." state line, converting it; every
/// failure is a ParseError naming source, line and the field.
class StateLine {
 public:
  StateLine(const std::string& source, int line, const std::string& text);
  const std::string& kind() const { return kind_; }
  std::string text(const std::string& key) const;
  double number(const std::string& key) const;
  long long integer(const std::string& key, long long low, long long high) const;
  bool has(const std::string& key) const { return fields_.count(key) > 0; }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string source_;
  int line_;
  std::string kind_;
  std::map<std::string, std::string> fields_;
};

}  // namespace tofa::service
