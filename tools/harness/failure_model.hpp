// The synthetic cluster's truth: which nodes fail, how often and for how
// long, which responders are frozen, and which datagrams the network drops.
// Every decision is a function of (seed, node, round), so a seeded run
// reproduces exactly whichever process asks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tofa::harness {

struct FailureSpec {
  double failing_fraction = 0.05;  ///< nodes with a true outage probability > 0
  double min_outage = 0.01;        ///< their probability, log-uniform in [min, max]
  double max_outage = 0.3;
  double repair_rounds = 1;        ///< mean rounds an outage lasts (1 = independent rounds)
  double frozen_fraction = 0.002;  ///< responders that accept but never answer (truth 1)
  double drop_rate = 0.001;        ///< each datagram, either way, is lost with this probability
  std::uint64_t seed = 1;
};

class FailureModel {
 public:
  FailureModel(const FailureSpec& spec, int node_count);

  /// The stationary probability that `node` does not answer a round.
  double truth(int node) const { return truth_[node]; }
  const std::vector<double>& truths() const { return truth_; }
  bool frozen(int node) const { return truth_[node] >= 1; }

  /// Whether `node` is up in `round` (a two-state Markov chain per node whose
  /// stationary down probability is truth(node); round 0 = the newest known).
  bool up(int node, std::uint64_t round);
  /// Whether a datagram for (node, round, attempt) gets through.
  bool delivered(int node, std::uint64_t round, int attempt) const;

  /// Failure events (up -> down transitions) seen so far, and repairs.
  std::uint64_t failures() const { return failures_; }
  std::uint64_t repairs() const { return repairs_; }
  const FailureSpec& spec() const { return spec_; }

 private:
  FailureSpec spec_;
  std::vector<double> truth_;
  std::vector<std::uint64_t> round_;  ///< round the state below is for
  std::vector<char> down_;
  std::uint64_t failures_ = 0, repairs_ = 0;
};

/// A uniform double in [0, 1) from a hash of the four values (splitmix64).
double hash_unit(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c);

}  // namespace tofa::harness
