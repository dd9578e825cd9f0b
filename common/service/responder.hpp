// The heartbeat responder inside slurmd (the seed's NodeState plugin).
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>

#include "net/server.hpp"
#include "service/service_state.hpp"
#include "service/tofa_conf.hpp"

namespace tofa::service {

struct ResponderOptions {
  std::string node_name;
  std::string bind_address = "0.0.0.0";
  int port = 0;               ///< 0 = ephemeral (tests)
  std::string munge_socket;   ///< "" = default
  uid_t service_uid = 0;      ///< only heartbeats sealed by this uid are answered
  int max_connections = ServiceSettings().max_connections;                    ///< MaxConnections
  int max_connections_per_peer = ServiceSettings().max_connections_per_peer;  ///< MaxConnectionsPerPeer
  double header_timeout = ServiceSettings().header_timeout;                   ///< HeaderTimeout, seconds
};

/// The reply to one request: "ALIVE <node>" to "HEARTBEAT node=<node>" from
/// the service uid; throws Error otherwise (the server sends "ERROR ...").
std::string answer_heartbeat(const ResponderOptions& options, const std::string& request,
                             uid_t uid);

class Responder {
 public:
  /// Binds and starts answering. Throws Error "bind HOST:PORT: TEXT".
  Responder(ResponderOptions options, Logger log);
  Responder(const Responder&) = delete;  // the handler refers to the members
  Responder& operator=(const Responder&) = delete;
  int port() const { return server_->port(); }
  void stop() { server_->stop(); }

 private:
  ResponderOptions options_;
  Logger log_;
  std::unique_ptr<net::Server> server_;
};

}  // namespace tofa::service
