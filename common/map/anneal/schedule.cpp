#include "schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tofa {
namespace anneal {

namespace {
constexpr double kBetaPrecision = 1e-3;
}  // namespace

double acceptance_at(const std::vector<double>& deltas, double beta) {
  if (deltas.empty()) return 1;
  double sum = 0;
  for (double delta : deltas) sum += delta <= 0 ? 1.0 : std::exp(-beta * delta);
  return sum / deltas.size();
}

BetaRange calibrate_betas(const std::vector<double>& deltas, double initial_acceptance,
                          double final_acceptance) {
  double smallest_uphill = std::numeric_limits<double>::infinity();
  for (double delta : deltas)
    if (delta > 0) smallest_uphill = std::min(smallest_uphill, delta);
  if (!std::isfinite(smallest_uphill)) return {0.1, 1.0};

  BetaRange range;
  range.last = std::log(1 / final_acceptance) / smallest_uphill;
  // Downhill and neutral proposals are always accepted; when they alone
  // reach the target, no beta gives it and the ladder starts a decade
  // below its end, as it does when the target beta is above that.
  const double ceiling = range.last / 10;
  if (acceptance_at(deltas, std::numeric_limits<double>::infinity()) >= initial_acceptance) {
    range.first = ceiling;
    return range;
  }
  double low = 0;
  double high = ceiling;
  while (acceptance_at(deltas, high) > initial_acceptance) high *= 2;
  // To 0.1%: the warm-up then corrects beta by factors of 1.5. (To the last
  // bit, 100 halvings of 4096 samples took ~2 ms, more than small jobs'
  // whole placement budget.)
  for (int i = 0; i < 100 && high - low > kBetaPrecision * high; ++i) {
    const double middle = (low + high) / 2;
    (acceptance_at(deltas, middle) > initial_acceptance ? low : high) = middle;
  }
  range.first = std::min(high, ceiling);
  return range;
}

std::vector<double> beta_ladder(const BetaRange& range, int steps) {
  if (steps <= 1) return {range.last};
  std::vector<double> ladder(steps);
  const double ratio = range.last / range.first;
  for (int k = 0; k < steps; ++k) ladder[k] = range.first * std::pow(ratio, double(k) / (steps - 1));
  return ladder;
}

}  // namespace anneal
}  // namespace tofa
