// Helpers shared by the state file formats: versioned headers, numbers that
// read back exactly, and records parsed one by one so that a bad record
// costs only itself.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"

namespace tofa::service {

/// The format version this tofa writes in the first line of every state file.
constexpr int kStateVersion = 2;

/// "# tofa-state KIND 2\n", the first line of a state file of that kind.
std::string state_header(const std::string& kind);

/// The version of a "# tofa-state KIND VERSION" line; nullopt when `line` is
/// not one.
std::optional<int> state_header_version(const std::string& line, const std::string& kind);

/// A state file written by a newer tofa: it must be left alone.
class NewerStateFile : public Error {
 public:
  using Error::Error;
};

/// Shortest text that reads back to the same double (locale independent).
std::string format_number(double value);

/// NaN -> 0, +-inf -> +-DBL_MAX; finite values unchanged.
double clamp_to_finite(double value);

/// format_number of clamp_to_finite: state files never hold inf or nan.
std::string state_number(double value);

/// Problems met while loading a file that did not stop it loading, one
/// "FILE:LINE: reason" each: a record skipped or a value repaired.
using LoadNotes = std::vector<std::string>;

/// Reads one field of a "kind k=v ..." state line, converting it; every
/// failure is a ParseError naming source, line and the field.
class StateLine {
 public:
  StateLine(const std::string& source, int line, const std::string& text);
  const std::string& kind() const { return kind_; }
  const std::string& line_text() const { return text_; }
  std::string text(const std::string& key) const;
  double number(const std::string& key) const;
  /// Like number(), but inf and nan (tofa wrote them before format 2) are
  /// clamped by clamp_to_finite and noted.
  double clamped_number(const std::string& key, LoadNotes& notes) const;
  long long integer(const std::string& key, long long low, long long high) const;
  bool has(const std::string& key) const { return fields_.count(key) > 0; }
  [[noreturn]] void fail(const std::string& message) const;
  /// "SOURCE:LINE: message".
  std::string where(const std::string& message) const;

 private:
  std::string source_;
  int line_;
  std::string text_;
  std::string kind_;
  std::map<std::string, std::string> fields_;
};

/// Checks the first line of a state file ("# tofa-state KIND VERSION", or
/// LEGACY_MAGIC of the format before versioned headers, e.g.
/// "tofa-placements 1") and calls `parse` for every following non-empty line.
/// A line whose parse throws Error is skipped (noted in `notes` when given).
/// Throws ParseError
/// when the first line is neither header, NewerStateFile when VERSION is
/// above kStateVersion.
void parse_state_records(const std::string& text, const std::string& source,
                         const std::string& kind, const std::string& legacy_magic,
                         LoadNotes* notes, const std::function<void(const StateLine&)>& parse);

}  // namespace tofa::service
