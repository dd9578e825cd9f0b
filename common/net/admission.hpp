// Connection limits of a server, overall and per peer address. When a limit
// is reached the oldest connection that has not yet delivered its credential
// makes room for the newcomer: idle or slow-header peers lose, clients that
// authenticate at once win. When every connection has delivered its
// credential, the newcomer is refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

namespace tofa::net {

struct ConnectionLimits {
  std::size_t total = 512;
  std::size_t per_peer = 256;
};

class Admission {
 public:
  explicit Admission(ConnectionLimits limits);

  struct Decision {
    bool admit = false;
    std::optional<std::uint64_t> evict;  ///< connection to close first
  };
  /// What to do with a new connection from `address` (no port).
  Decision on_arrival(const std::string& address) const;

  /// Records an admitted connection; `id`s increase with arrival.
  void add(std::uint64_t id, const std::string& address);
  /// The connection has delivered its credential: it is no longer evicted.
  void credential_delivered(std::uint64_t id);
  void remove(std::uint64_t id);

  std::size_t size() const { return entries_.size(); }

 private:
  std::optional<std::uint64_t> oldest_without_credential(const std::string* address) const;

  struct Entry {
    std::string address;
    bool delivered = false;
  };
  ConnectionLimits limits_;
  std::map<std::uint64_t, Entry> entries_;  // oldest first
  std::unordered_map<std::string, std::size_t> per_address_;
};

}  // namespace tofa::net
