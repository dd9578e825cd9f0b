// Portable draws from raw mt19937_64 outputs.
#include "random_draws.hpp"

#include <cmath>

namespace tofa::harness {

double draw_unit(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t bound) {
  if (bound <= 1) return 0;
  // Largest multiple of bound that fits: outputs at or above it are redrawn.
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  for (;;) {
    const std::uint64_t value = rng();
    if (value < limit) return value % bound;
  }
}

double draw_exponential(std::mt19937_64& rng, double mean) {
  return -mean * std::log1p(-draw_unit(rng));
}

double draw_log_uniform(std::mt19937_64& rng, double low, double high) {
  if (high <= low) return low;
  const double log_low = std::log(low);
  return std::exp(log_low + draw_unit(rng) * (std::log(high) - log_low));
}

}  // namespace tofa::harness
