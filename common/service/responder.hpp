// The heartbeat responder inside slurmd (the seed's NodeState plugin): the
// munge-authenticated TCP heartbeat on `port`, and on the same UDP port the
// session heartbeats (heartbeat_datagram.hpp) once a TCP heartbeat has
// handed over a key. tofa-harness runs one for thousands of nodes.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "net/munge_codec.hpp"
#include "net/server.hpp"
#include "net/socket_io.hpp"
#include "service/responder_sessions.hpp"
#include "service/service_state.hpp"
#include "service/tofa_conf.hpp"

namespace tofa::service {

struct ResponderOptions {
  std::vector<std::string> node_names;  ///< slurmd: its own node
  std::string bind_address = "0.0.0.0";
  int port = 0;               ///< 0 = ephemeral (tests); UDP uses the same number
  std::string munge_socket;   ///< "" = default
  uid_t service_uid = 0;      ///< only heartbeats sealed by this uid are answered
  int max_connections = ServiceSettings().max_connections;                    ///< MaxConnections
  int max_connections_per_peer = ServiceSettings().max_connections_per_peer;  ///< MaxConnectionsPerPeer
  double header_timeout = ServiceSettings().header_timeout;                   ///< HeaderTimeout, seconds
  bool sessions = true;       ///< accept session keys and answer UDP probes
  AnswerFilter filter;        ///< empty = answer every heartbeat
};

/// The reply to one TCP request: "ALIVE <node>" to "HEARTBEAT node=<node>"
/// from the service uid, with " session=ok" when the request carried a
/// session key that `sessions` (may be null) accepted; throws Error
/// otherwise (the server sends "ERROR ...").
std::string answer_heartbeat(const ResponderOptions& options, ResponderSessions* sessions,
                             const net::MungeCodec& codec, const std::string& request, uid_t uid);

class Responder {
 public:
  /// Binds (TCP, and UDP when options.sessions) and starts answering. Throws
  /// Error "bind HOST:PORT: TEXT".
  Responder(ResponderOptions options, Logger log);
  ~Responder();
  Responder(const Responder&) = delete;  // the handler refers to the members
  Responder& operator=(const Responder&) = delete;
  int port() const { return server_->port(); }
  void stop();

 private:
  void answer_datagrams();

  ResponderOptions options_;
  Logger log_;
  net::MungeCodec codec_;
  std::unique_ptr<ResponderSessions> sessions_;
  std::unique_ptr<net::Server> server_;
  net::Fd udp_;
  std::atomic<bool> udp_ready_{false};
  std::atomic<bool> stopping_{false};
  std::thread udp_thread_;
};

}  // namespace tofa::service
