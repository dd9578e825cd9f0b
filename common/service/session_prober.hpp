// The service's side of the session heartbeats (heartbeat_datagram.hpp): one
// UDP datagram per node and round to every node that holds a session key,
// sent and collected by one thread without waiting on any node.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "net/datagram_socket.hpp"
#include "service/service_state.hpp"

namespace tofa::service {

enum class ProbeOutcome {
  answered,   ///< an authentic ALIVE for this round within the timeout
  missed,     ///< nothing authentic within the timeout (each probe is sent twice)
  needs_tcp,  ///< no session with this target, or its responder says it has none
};

class SessionProber {
 public:
  /// Remembers the key a TCP heartbeat handed to `target`; its address is
  /// resolved now. Throws Error when it cannot be resolved.
  void start_session(const HeartbeatTarget& target, std::string key);
  void end_session(const std::string& node) { sessions_.erase(node); }
  /// True when `target` (same host and port as when the session began) has one.
  bool has_session(const HeartbeatTarget& target) const;
  std::size_t session_count() const { return sessions_.size(); }

  /// Probes every target with a session for `round` (the round number only
  /// grows), resending once to the silent ones after timeout/2, and waits
  /// until all answered or `timeout` seconds after the last send. One outcome
  /// per target.
  std::vector<ProbeOutcome> probe(const std::vector<HeartbeatTarget>& targets, std::uint64_t round,
                                  double timeout, const std::atomic<bool>& stopping);

 private:
  struct Session {
    std::string host;
    int port = 0;
    std::string key;
    net::DatagramAddress address;
  };
  int socket_for(int family);
  void collect(std::uint64_t round, const std::unordered_map<std::string, std::size_t>& index,
               std::vector<ProbeOutcome>& outcomes, std::size_t& pending);

  std::unordered_map<std::string, Session> sessions_;
  net::Fd ipv4_, ipv6_;
};

}  // namespace tofa::service
