// Draws fixed by std::mt19937_64 alone: the std::*_distribution algorithms
// are each standard library's own choice, so their outputs differ between
// implementations; these do not.
#pragma once

#include <cstdint>
#include <random>

namespace tofa::harness {

/// Uniform in [0, 1) from the top 53 bits of one output.
double draw_unit(std::mt19937_64& rng);

/// Uniform integer in [0, bound), bound >= 1 (rejection sampling).
std::uint64_t draw_below(std::mt19937_64& rng, std::uint64_t bound);

/// Exponential with the given mean (> 0): -mean * log(1 - u).
double draw_exponential(std::mt19937_64& rng, double mean);

/// Log-uniform in [low, high], 0 < low <= high: exp(uniform(log low, log high)).
double draw_log_uniform(std::mt19937_64& rng, double low, double high);

}  // namespace tofa::harness
