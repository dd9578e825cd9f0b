// Tasks promised to direct sruns: a direct srun is placed before it is
// submitted, on the CPUs free at that moment, and Slurm counts them as used
// only once its job starts. Placements of concurrent direct sruns leave the
// promised ones alone, so they do not all pin the same nodes and queue.
#pragma once

#include <sys/types.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace tofa::service {

class SrunClaims {
 public:
  /// A claim lapses after `lifetime` seconds (a job that never started), or
  /// `grace` seconds after its release: a direct srun may have read the
  /// node states just before the released job started.
  explicit SrunClaims(double lifetime = 30, double grace = 5)
      : lifetime_(lifetime), grace_(grace) {}

  /// Tasks per node name promised by the claims still alive at `now`.
  std::map<std::string, int> promised(double now);
  /// Promises the tasks of a placement (one node name per task).
  void add(uid_t uid, const std::vector<std::string>& nodes, double now);
  /// Releases uid's oldest unreleased claim with exactly this placement's
  /// tasks per node (its job started and was recorded); false when none.
  bool release(uid_t uid, const std::vector<std::string>& nodes, double now);
  std::size_t size() const { return claims_.size(); }

 private:
  struct Claim {
    double until;  // lapses then
    bool released;
    uid_t uid;
    std::map<std::string, int> tasks;
  };
  static std::map<std::string, int> count(const std::vector<std::string>& nodes);

  static constexpr std::size_t kMaxClaims = 4096;  // then the oldest lapses
  double lifetime_;
  double grace_;
  std::deque<Claim> claims_;  // oldest first
};

}  // namespace tofa::service
