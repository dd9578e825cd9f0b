// A one-line progress display on stderr, shown only when stderr is a terminal.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace tofa::sim {

class Progress {
 public:
  /// `total` <= 0: no known end, the line shows the count and elapsed time.
  /// `enabled` false: never shown.
  Progress(std::string label, long long total, bool enabled = true)
      : label_(std::move(label)),
        total_(total),
        shown_(enabled && isatty(STDERR_FILENO) == 1),
        start_(std::chrono::steady_clock::now()),
        last_(start_) {}
  ~Progress() { finish(); }

  /// Redraws at most ten times a second.
  void update(long long done) {
    if (!shown_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100) && done != total_) return;
    last_ = now;
    const double seconds = std::chrono::duration<double>(now - start_).count();
    if (total_ > 0)
      std::fprintf(stderr, "\r%s: %lld/%lld (%.0f%%) %.1f s ", label_.c_str(), done, total_,
                   100.0 * static_cast<double>(done) / static_cast<double>(total_), seconds);
    else
      std::fprintf(stderr, "\r%s: %.1f s ", label_.c_str(), seconds);
    drawn_ = true;
  }

  /// Clears the line (idempotent).
  void finish() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

 private:
  std::string label_;
  long long total_;
  bool shown_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace tofa::sim
