// The inverse-temperature ladder: the first beta accepts 10-20% of proposed
// changes, the last almost none (the seed's step 5), geometric in between.
#pragma once

#include <vector>

namespace tofa {
namespace anneal {

/// Mean Metropolis acceptance min(1, exp(-beta * delta)) over sampled deltas.
double acceptance_at(const std::vector<double>& deltas, double beta);

struct BetaRange {
  double first = 0;
  double last = 0;
};

/// `deltas` are normalized energy changes of proposals sampled from the
/// starting placement. first: acceptance_at(first) = initial_acceptance (by
/// bisection); last: the smallest uphill change is accepted with probability
/// final_acceptance. first is at most last / 10 (also when downhill and
/// neutral samples alone exceed initial_acceptance). Without uphill
/// samples, {0.1, 1}.
BetaRange calibrate_betas(const std::vector<double>& deltas, double initial_acceptance,
                          double final_acceptance);

/// `steps` values from first to last, equal ratios (steps >= 1; one step is `last`).
std::vector<double> beta_ladder(const BetaRange& range, int steps);

}  // namespace anneal
}  // namespace tofa
