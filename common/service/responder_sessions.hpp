// The responder's side of the session heartbeats (heartbeat_datagram.hpp):
// the keys the service handed over, per node, and the answer to a datagram.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tofa::service {

/// Whether `node` answers its heartbeat of `round` (0: a heartbeat that names
/// no round). Empty = always; tofa-harness's failure model sets it.
using AnswerFilter = std::function<bool(const std::string& node, std::uint64_t round)>;

/// The payload of the munge credential that carries a session key, and its
/// reading back; nullopt when `payload` is not a key for `node`.
std::string session_key_payload(const std::string& node, const std::string& key);
std::optional<std::string> key_from_payload(const std::string& node, const std::string& payload);

class ResponderSessions {
 public:
  /// The nodes answered; a datagram for any other node is dropped.
  explicit ResponderSessions(const std::vector<std::string>& nodes);

  bool serves(const std::string& node) const { return keys_.count(node) != 0; }

  /// A new session for `node` (replaces the old one).
  void set_key(const std::string& node, std::string key);

  /// The reply to one datagram: ALIVE to an authentic probe of a round not
  /// older than the newest answered (and that `filter` lets through),
  /// NOSESSION to a probe for a served node without a key, nullopt for
  /// everything else (malformed, unknown node, bad MAC, replay).
  std::optional<std::string> answer(const std::string& datagram, const AnswerFilter& filter);

 private:
  struct Session {
    std::string key;            ///< empty: none yet
    std::uint64_t newest = 0;   ///< newest round answered
  };
  std::mutex mutex_;
  std::unordered_map<std::string, Session> keys_;  ///< one entry per served node
};

}  // namespace tofa::service
