// The annealer's random numbers: xoshiro256** seeded through splitmix64, with
// our own bounded and real draws, so that a seed gives the same placement on
// every platform (std:: distributions differ between standard libraries).
#pragma once

#include <cstdint>

namespace tofa {
namespace anneal {

class RandomStream {
 public:
  explicit RandomStream(std::uint64_t seed) {
    for (std::uint64_t& word : state_) {
      seed += 0x9E3779B97F4A7C15ULL;
      std::uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      word = z ^ (z >> 31);
    }
  }

  std::uint64_t next() {
    const std::uint64_t result = rotate(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotate(state_[3], 45);
    return result;
  }

  /// Uniform in [0, bound), bound >= 1 (Lemire's multiply-and-reject).
  std::uint32_t below(std::uint32_t bound) {
    std::uint64_t product = (next() >> 32) * bound;
    std::uint32_t low = static_cast<std::uint32_t>(product);
    if (low < bound) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
      while (low < threshold) {
        product = (next() >> 32) * bound;
        low = static_cast<std::uint32_t>(product);
      }
    }
    return static_cast<std::uint32_t>(product >> 32);
  }

  /// Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotate(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t state_[4];
};

}  // namespace anneal
}  // namespace tofa
