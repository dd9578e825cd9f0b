#include "service/user_slots.hpp"

namespace tofa::service {

UserSlots::Slot UserSlots::take(uid_t uid) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t& running = running_[uid];
  if (running >= per_user_) {
    if (running == 0) running_.erase(uid);
    return Slot(nullptr, uid);
  }
  ++running;
  return Slot(this, uid);
}

std::size_t UserSlots::in_use(uid_t uid) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = running_.find(uid);
  return found == running_.end() ? 0 : found->second;
}

UserSlots::Slot::~Slot() {
  if (!owner_) return;
  std::lock_guard<std::mutex> lock(owner_->mutex_);
  const auto found = owner_->running_.find(uid_);
  if (found != owner_->running_.end() && --found->second == 0) owner_->running_.erase(found);
}

}  // namespace tofa::service
