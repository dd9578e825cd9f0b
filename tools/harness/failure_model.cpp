#include "harness/failure_model.hpp"

#include <cmath>

#include "base/error.hpp"

namespace tofa::harness {
namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

enum Stream : std::uint64_t { kChosen = 1, kOutage, kFrozen, kStep, kDrop };

}  // namespace

double hash_unit(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const std::uint64_t h = mix(mix(mix(mix(seed) ^ a) ^ b) ^ c);
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

FailureModel::FailureModel(const FailureSpec& spec, int node_count)
    : spec_(spec), truth_(node_count, 0.0), round_(node_count, 0), down_(node_count, 0) {
  if (spec.failing_fraction < 0 || spec.failing_fraction > 1 || spec.frozen_fraction < 0 ||
      spec.frozen_fraction > 1 || spec.drop_rate < 0 || spec.drop_rate >= 1)
    throw Error("failure model: fractions and the drop rate must lie in [0, 1)");
  if (!(spec.min_outage > 0) || spec.max_outage < spec.min_outage || spec.max_outage >= 1)
    throw Error("failure model: expected 0 < min outage <= max outage < 1");
  if (!(spec.repair_rounds >= 1)) throw Error("failure model: repair rounds must be >= 1");
  for (int node = 0; node < node_count; ++node) {
    const auto id = static_cast<std::uint64_t>(node);
    if (hash_unit(spec.seed, kFrozen, id, 0) < spec.frozen_fraction) {
      truth_[node] = 1;
    } else if (hash_unit(spec.seed, kChosen, id, 0) < spec.failing_fraction) {
      const double u = hash_unit(spec.seed, kOutage, id, 0);
      truth_[node] = spec.min_outage * std::pow(spec.max_outage / spec.min_outage, u);
    }
  }
}

bool FailureModel::up(int node, std::uint64_t round) {
  const double p = truth_[node];
  if (p <= 0) return true;
  if (p >= 1) return false;
  // Down -> up with b = 1/repair_rounds; up -> down with a = p b / (1 - p):
  // the stationary down probability a / (a + b) is p.
  const double b = 1 / spec_.repair_rounds;
  const double a = std::min(1.0, p * b / (1 - p));
  const auto id = static_cast<std::uint64_t>(node);
  if (round < round_[node]) return !down_[node];  // an older round: the state we know
  while (round_[node] < round) {
    const std::uint64_t next = ++round_[node];
    const double u = hash_unit(spec_.seed, kStep, id, next);
    if (down_[node] && u < b) {
      down_[node] = 0;
      ++repairs_;
    } else if (!down_[node] && u < a) {
      down_[node] = 1;
      ++failures_;
    }
  }
  return !down_[node];
}

bool FailureModel::delivered(int node, std::uint64_t round, int attempt) const {
  if (spec_.drop_rate <= 0) return true;
  const std::uint64_t key = (static_cast<std::uint64_t>(node) << 8) | static_cast<unsigned>(attempt & 255);
  return hash_unit(spec_.seed, kDrop, key, round) >= spec_.drop_rate;
}

}  // namespace tofa::harness
