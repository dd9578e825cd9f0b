// Service time shared per user: a user may run at most `per_user`
// placements at once. The service's request threads are few (4); without
// this one user's requests, each as expensive as the mapping worker's time
// limit allows, could hold all of them and deny placement to everyone else.
// A request over the limit is refused at once (the client tries again), so
// it holds no thread while it waits.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <mutex>

namespace tofa::service {

class UserSlots {
 public:
  explicit UserSlots(std::size_t per_user = 1) : per_user_(per_user) {}

  /// Holds one of uid's slots while alive; `held()` is false when uid had none free.
  class Slot {
   public:
    Slot(UserSlots* owner, uid_t uid) : owner_(owner), uid_(uid) {}
    Slot(Slot&& other) noexcept : owner_(other.owner_), uid_(other.uid_) { other.owner_ = nullptr; }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    Slot& operator=(Slot&&) = delete;
    ~Slot();
    bool held() const { return owner_ != nullptr; }

   private:
    UserSlots* owner_;
    uid_t uid_;
  };

  Slot take(uid_t uid);
  std::size_t in_use(uid_t uid) const;

 private:
  std::size_t per_user_;
  mutable std::mutex mutex_;
  std::map<uid_t, std::size_t> running_;
};

}  // namespace tofa::service
