// Outage models and per-node heartbeat histories (the state slurmctld/tofa persists).
#include <charconv>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "base/error.hpp"
#include "faults/faults.hpp"

namespace tofa {

namespace {

// std::to_chars/from_chars: locale independent (slurmctld may run under any
// locale) and the shortest text that reads back to the same double.
std::string format_double(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

bool parse_double(const std::string& text, double& value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, value);
  return result.ec == std::errc() && result.ptr == end && std::isfinite(value);
}

template <typename Integer>
bool parse_integer(const std::string& text, Integer& value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, value);
  return result.ec == std::errc() && result.ptr == end;
}

[[noreturn]] void bad_model(const std::string& text) {
  throw Error("bad outage model '" + text +
              "': expected 'window:N' (N >= 1) or 'ewma:A' (0 < A <= 1)");
}

[[noreturn]] void bad_history(const std::string& text, const std::string& expected) {
  throw Error("bad heartbeat history '" + text + "': " + expected);
}

}  // namespace

OutageModel OutageModel::parse(const std::string& text) {
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const bool has_value = colon != std::string::npos;
  const std::string value = has_value ? text.substr(colon + 1) : std::string();

  OutageModel model;
  if (kind == "window") {
    model.kind = Kind::MovingWindow;
    if (has_value && (!parse_integer(value, model.window) || model.window < 1)) bad_model(text);
  } else if (kind == "ewma") {
    model.kind = Kind::Ewma;
    if (has_value && (!parse_double(value, model.alpha) || !(model.alpha > 0) ||
                      model.alpha > 1)) {
      bad_model(text);
    }
  } else {
    bad_model(text);
  }
  return model;
}

std::string OutageModel::to_string() const {
  if (kind == Kind::MovingWindow) return "window:" + std::to_string(window);
  return "ewma:" + format_double(alpha);
}

void HeartbeatHistory::record(bool answered, const OutageModel& model) {
  recent_.push_back(answered);
  recent_missed_ += answered ? 0 : 1;
  const std::size_t keep = model.window < 1 ? 1 : static_cast<std::size_t>(model.window);
  for (; recent_.size() > keep; recent_.pop_front()) recent_missed_ -= recent_.front() ? 0 : 1;
  if (answered) {
    ++answered_total_;
  } else {
    ++missed_total_;
  }
  ewma_ = model.alpha * (answered ? 0.0 : 1.0) + (1 - model.alpha) * ewma_;
}

double HeartbeatHistory::outage_probability(const OutageModel& model) const {
  if (model.kind == OutageModel::Kind::Ewma) return ewma_;
  if (recent_.empty()) return 0;
  return static_cast<double>(recent_missed_) / static_cast<double>(recent_.size());
}

std::string HeartbeatHistory::to_text() const {
  std::string recent;
  recent.reserve(recent_.size());
  for (bool answered : recent_) recent += answered ? '1' : '0';
  return "answered=" + std::to_string(answered_total_) +
         " missed=" + std::to_string(missed_total_) + " ewma=" + format_double(ewma_) +
         " recent=" + recent;
}

HeartbeatHistory HeartbeatHistory::from_text(const std::string& text) {
  static const char* const keys[] = {"answered", "missed", "ewma", "recent"};
  std::istringstream in(text);
  std::vector<std::string> values;
  std::string field;
  while (in >> field) {
    const std::size_t index = values.size();
    if (index >= 4) bad_history(text, "unexpected '" + field + "' after recent=...");
    const std::string prefix = std::string(keys[index]) + "=";
    if (field.compare(0, prefix.size(), prefix) != 0) {
      bad_history(text, "expected '" + prefix + "...', found '" + field + "'");
    }
    values.push_back(field.substr(prefix.size()));
  }
  if (values.size() < 4) {
    bad_history(text, "expected 'answered=N missed=N ewma=E recent=BITS', missing '" +
                          std::string(keys[values.size()]) + "='");
  }

  HeartbeatHistory history;
  if (!parse_integer(values[0], history.answered_total_)) {
    bad_history(text, "expected a count after 'answered=', found '" + values[0] + "'");
  }
  if (!parse_integer(values[1], history.missed_total_)) {
    bad_history(text, "expected a count after 'missed=', found '" + values[1] + "'");
  }
  if (!parse_double(values[2], history.ewma_) || history.ewma_ < 0 || history.ewma_ > 1) {
    bad_history(text, "expected a number between 0 and 1 after 'ewma=', found '" +
                          values[2] + "'");
  }
  std::uint64_t recent_answered = 0;
  std::uint64_t recent_missed = 0;
  for (char bit : values[3]) {
    if (bit != '0' && bit != '1') {
      bad_history(text, "expected only 0 (missed) and 1 (answered) after 'recent=', found '" +
                            values[3] + "'");
    }
    history.recent_.push_back(bit == '1');
    (bit == '1' ? recent_answered : recent_missed) += 1;
  }
  history.recent_missed_ = static_cast<std::size_t>(recent_missed);
  if (recent_answered > history.answered_total_ || recent_missed > history.missed_total_) {
    bad_history(text, "recent heartbeats exceed the answered/missed totals");
  }
  return history;
}

}  // namespace tofa
