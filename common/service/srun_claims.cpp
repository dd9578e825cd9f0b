#include "service/srun_claims.hpp"

#include <algorithm>

namespace tofa::service {

std::map<std::string, int> SrunClaims::count(const std::vector<std::string>& nodes) {
  std::map<std::string, int> tasks;
  for (const std::string& node : nodes) ++tasks[node];
  return tasks;
}

std::map<std::string, int> SrunClaims::promised(double now) {
  claims_.erase(std::remove_if(claims_.begin(), claims_.end(),
                               [now](const Claim& claim) { return claim.until < now; }),
                claims_.end());
  std::map<std::string, int> total;
  for (const Claim& claim : claims_)
    for (const auto& [node, tasks] : claim.tasks) total[node] += tasks;
  return total;
}

void SrunClaims::add(uid_t uid, const std::vector<std::string>& nodes, double now) {
  if (claims_.size() >= kMaxClaims) claims_.pop_front();
  claims_.push_back({now + lifetime_, false, uid, count(nodes)});
}

bool SrunClaims::release(uid_t uid, const std::vector<std::string>& nodes, double now) {
  const std::map<std::string, int> tasks = count(nodes);
  for (Claim& claim : claims_) {
    if (!claim.released && claim.uid == uid && claim.tasks == tasks) {
      claim.released = true;
      claim.until = std::min(claim.until, now + grace_);
      return true;
    }
  }
  return false;
}

}  // namespace tofa::service
