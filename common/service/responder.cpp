#include "service/responder.hpp"

#include "service/protocol.hpp"
#include "tofa/error.hpp"

namespace tofa::service {

std::string answer_heartbeat(const ResponderOptions& options, const std::string& request,
                             uid_t uid) {
  if (uid != options.service_uid)
    throw Error("heartbeat from uid " + std::to_string(uid) + " refused: only uid " +
                std::to_string(options.service_uid) + " (the TOFA service) is answered");
  const Message message = parse_message(request);
  if (message.verb != "HEARTBEAT") throw Error("unknown verb " + message.verb + ": expected HEARTBEAT");
  const std::string& node = message.field("node");
  if (node != options.node_name)
    throw Error("heartbeat for " + node + " reached node " + options.node_name);
  return "ALIVE " + options.node_name;
}

Responder::Responder(ResponderOptions options, Logger log)
    : options_(std::move(options)), log_(std::move(log)) {
  net::ServerOptions server;
  server.host = options_.bind_address.empty() ? "0.0.0.0" : options_.bind_address;
  server.port = options_.port;
  server.munge_socket = options_.munge_socket;
  server.io_timeout = std::chrono::milliseconds(2000);
  server.header_timeout = seconds_to_ms(options_.header_timeout);
  server.max_connections = static_cast<std::size_t>(options_.max_connections);
  server.max_connections_per_peer = static_cast<std::size_t>(options_.max_connections_per_peer);
  server.max_body = 4096;
  server.workers = 2;
  server.log_error = [this](const std::string& line) {
    if (log_) log_(0, "tofa responder " + options_.node_name + ": " + line);
  };
  const ResponderOptions& fixed = options_;
  const Logger& logger = log_;
  server_ = std::make_unique<net::Server>(server, [&fixed, &logger](const net::Request& r) {
    try {
      return answer_heartbeat(fixed, r.body, r.uid);
    } catch (const std::exception& e) {
      if (logger) logger(0, "tofa responder " + fixed.node_name + ": request from " + r.peer +
                                ": " + e.what());
      throw;
    }
  });
}

}  // namespace tofa::service
