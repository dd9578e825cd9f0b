#include "net/log_limiter.hpp"

#include <cctype>

namespace tofa::net {

LogLimiter::LogLimiter(std::size_t burst, Clock::duration interval)
    : burst_(burst), interval_(interval) {}

std::string LogLimiter::kind_of(const std::string& line) {
  std::string kind;
  for (char c : line) {
    if (std::isdigit(static_cast<unsigned char>(c))) continue;
    kind += c;
    if (kind.size() == 80) break;
  }
  return kind;
}

std::vector<std::string> LogLimiter::admit_as(const std::string& kind_name, const std::string& line,
                                              Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string key = kind_name;
  if (kinds_.size() >= kMaxKinds && kinds_.find(key) == kinds_.end()) {
    // Too many kinds at once: forget those whose window is over; if every
    // one is current, all new kinds share one budget.
    for (auto it = kinds_.begin(); it != kinds_.end();)
      it = now - it->second.window_start >= interval_ && it->second.suppressed == 0 ? kinds_.erase(it)
                                                                                     : std::next(it);
    if (kinds_.size() >= kMaxKinds) key = "(other kinds)";
  }
  auto [found, added] = kinds_.try_emplace(key);
  Kind& kind = found->second;
  std::vector<std::string> out;
  if (added || now - kind.window_start >= interval_) {
    if (kind.suppressed > 0)
      out.push_back(std::to_string(kind.suppressed) + " more like the next line in the last " +
                    std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                                       now - kind.window_start).count()) +
                    " s, not logged");
    kind = Kind{now, 0, 0};
  }
  if (kind.in_window < burst_) {
    ++kind.in_window;
    out.push_back(line);
  } else {
    ++kind.suppressed;
    out.clear();
  }
  return out;
}

}  // namespace tofa::net
