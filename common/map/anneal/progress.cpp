#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "base/error.hpp"

namespace tofa {
namespace anneal {

ProgressMode parse_progress_mode(const std::string& text) {
  if (text == "auto") return ProgressMode::Auto;
  if (text == "yes") return ProgressMode::Always;
  if (text == "no") return ProgressMode::Never;
  throw Error("unknown progress setting '" + text + "': expected auto, yes or no");
}

ProgressReporter::ProgressReporter(ProgressMode mode, double interval_seconds)
    : enabled_(mode == ProgressMode::Always || (mode == ProgressMode::Auto && isatty(2))),
      interval_(interval_seconds), start_(std::chrono::steady_clock::now()) {}

double ProgressReporter::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressReporter::step(int step, int steps, double beta, double normalized_energy,
                            double acceptance) {
  if (!enabled_) return;
  const double now = elapsed_seconds();
  if (now - last_line_ < interval_) return;
  last_line_ = now;
  printed_ = true;
  std::fprintf(stderr,
               "anneal: stage %d/%d step %d/%d beta %.4g F/F_min %.4f accepted %.1f%% %.1f s\n",
               stage_, stage_count_, step, steps, beta, normalized_energy, 100 * acceptance, now);
}

void ProgressReporter::finish(double normalized_energy) {
  if (!enabled_ || !printed_) return;
  std::fprintf(stderr, "anneal: done, F/F_min %.4f after %.1f s\n", normalized_energy,
               elapsed_seconds());
}

}  // namespace anneal
}  // namespace tofa
