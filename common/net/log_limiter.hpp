// Log lines that anyone on the network can cause (a connection that never
// authenticates, a flood of them) kept to a few per kind and interval, so
// that nobody can fill the daemons' logs: the rest of a kind is counted and
// summed up in one line when that kind next speaks after its interval.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tofa::net {

class LogLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  /// At most `burst` lines of one kind per `interval`.
  explicit LogLimiter(std::size_t burst = 5,
                      Clock::duration interval = std::chrono::seconds(10));

  /// The lines to write for `line` now: none (suppressed), the line, or a
  /// summary of the suppressed ones before it. Thread-safe.
  std::vector<std::string> admit(const std::string& line, Clock::time_point now = Clock::now()) {
    return admit_as(kind_of(line), line, now);
  }
  /// The same, the kind named by the caller (e.g. one per user).
  std::vector<std::string> admit_as(const std::string& kind, const std::string& line,
                                    Clock::time_point now = Clock::now());

  /// A line's kind: its text without digits (addresses, ports, counts), cut
  /// at 80 characters.
  static std::string kind_of(const std::string& line);

 private:
  struct Kind {
    Clock::time_point window_start;
    std::size_t in_window = 0;
    std::size_t suppressed = 0;
  };
  static constexpr std::size_t kMaxKinds = 256;

  std::size_t burst_;
  Clock::duration interval_;
  std::mutex mutex_;
  std::unordered_map<std::string, Kind> kinds_;
};

}  // namespace tofa::net
