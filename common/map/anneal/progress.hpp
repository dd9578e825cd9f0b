// Periodic progress lines on stderr for long annealing runs.
#pragma once

#include <chrono>
#include <string>

namespace tofa {
namespace anneal {

enum class ProgressMode {
  Auto,    ///< lines when stderr is a terminal
  Always,  ///< lines whatever stderr is (logs)
  Never,
};

/// "auto", "yes" or "no"; throws Error otherwise.
ProgressMode parse_progress_mode(const std::string& text);

/// Prints at most one line per `interval` once the run has lasted that long,
/// e.g. "anneal: stage 2/8 step 37/100 beta 812 F/F_min 1.234 accepted 3.1% 4.0 s".
class ProgressReporter {
 public:
  explicit ProgressReporter(ProgressMode mode, double interval_seconds = 2.0);

  double elapsed_seconds() const;
  void set_stage(int stage, int stage_count) {
    stage_ = stage;
    stage_count_ = stage_count;
  }
  void step(int step, int steps, double beta, double normalized_energy, double acceptance);
  /// The closing line (only when earlier lines were printed).
  void finish(double normalized_energy);

 private:
  bool enabled_;
  double interval_;
  std::chrono::steady_clock::time_point start_;
  double last_line_ = 0;
  bool printed_ = false;
  int stage_ = 1;
  int stage_count_ = 1;
};

}  // namespace anneal
}  // namespace tofa
