#include "service/responder.hpp"

#include <poll.h>

#include <algorithm>

#include "base/error.hpp"
#include "net/datagram_socket.hpp"
#include "service/heartbeat_datagram.hpp"
#include "service/protocol.hpp"

namespace tofa::service {
namespace {

constexpr int kDatagramBufferBytes = 4 << 20;

std::uint64_t round_of(const Message& message) {
  const std::string text = message.field_or("round", "0");
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
    throw Error("bad round '" + text.substr(0, 40) + "': expected a number");
  return std::stoull(text);
}

}  // namespace

std::string answer_heartbeat(const ResponderOptions& options, ResponderSessions* sessions,
                             const net::MungeCodec& codec, const std::string& request, uid_t uid) {
  if (uid != options.service_uid)
    throw Error("heartbeat from uid " + std::to_string(uid) + " refused: only uid " +
                std::to_string(options.service_uid) + " (the TOFA service) is answered");
  const Message message = parse_message(request);
  if (message.verb != "HEARTBEAT") throw Error("unknown verb " + message.verb + ": expected HEARTBEAT");
  const std::string& node = message.field("node");
  const auto& names = options.node_names;
  if (std::find(names.begin(), names.end(), node) == names.end())
    throw Error("heartbeat for " + node + " reached node " +
                (names.size() == 1 ? names[0] : "set of " + std::to_string(names.size())));
  if (options.filter && !options.filter(node, round_of(message)))
    throw Error("node " + node + " does not answer (failure model)");
  const std::string offer = message.field_or("session", "");
  if (offer.empty() || !sessions) return "ALIVE " + node;
  // The key travels inside its own munge credential, readable only by
  // root (slurmd): munge encrypts the payload and refuses other readers.
  // A key this process may not read (not root) or not from the service:
  // the node is alive all the same, it just stays on TCP heartbeats.
  try {
    const net::MungeDecoded decoded = codec.decode(offer);
    const std::optional<std::string> key = key_from_payload(node, decoded.payload);
    if (decoded.uid != options.service_uid || !key) return "ALIVE " + node;
    sessions->set_key(node, *key);
  } catch (const net::MungeError&) {
    return "ALIVE " + node;
  }
  return "ALIVE " + node + " session=ok";
}

Responder::Responder(ResponderOptions options, Logger log)
    : options_(std::move(options)), log_(std::move(log)), codec_(options_.munge_socket) {
  if (options_.node_names.empty()) throw Error("responder: no node names");
  const std::string who = options_.node_names.size() == 1
                              ? options_.node_names[0]
                              : std::to_string(options_.node_names.size()) + " nodes";
  sessions_ = std::make_unique<ResponderSessions>(options_.node_names);
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
  server.log_error = [this, who](const std::string& line) {
    if (log_) log_(0, "tofa responder " + who + ": " + line);
  };
  server_ = std::make_unique<net::Server>(server, [this, who](const net::Request& r) {
    try {
      return answer_heartbeat(options_, udp_ready_ ? sessions_.get() : nullptr, codec_, r.body,
                              r.uid);
    } catch (const std::exception& e) {
      if (log_) log_(options_.filter ? 2 : 0,
                     "tofa responder " + who + ": request from " + r.peer + ": " + e.what());
      throw;
    }
  });
  if (!options_.sessions) return;
  try {  // without UDP the node still answers, over TCP only
    udp_ = net::bind_datagram_socket(server.host, server_->port(), kDatagramBufferBytes);
    udp_thread_ = std::thread([this] { answer_datagrams(); });
    udp_ready_ = true;
  } catch (const std::exception& e) {
    if (log_) log_(0, "tofa responder " + who + ": " + e.what() + "; heartbeats over TCP only");
  }
}

Responder::~Responder() { stop(); }

void Responder::stop() {
  stopping_ = true;
  if (udp_thread_.joinable()) udp_thread_.join();
  udp_.reset();  // the port is free for a successor at once, as the TCP one
  server_->stop();
}

void Responder::answer_datagrams() {
  while (!stopping_) {
    pollfd ready{udp_.get(), POLLIN, 0};
    if (::poll(&ready, 1, 200) <= 0) continue;
    net::DatagramAddress from;
    while (std::optional<std::string> datagram =
               net::receive_datagram(udp_.get(), kMaxDatagramBytes, &from)) {
      try {
        if (std::optional<std::string> reply = sessions_->answer(*datagram, options_.filter))
          net::send_datagram(udp_.get(), *reply, from);
      } catch (const std::exception& e) {
        if (log_) log_(0, std::string("tofa responder: datagram: ") + e.what());
      }
    }
  }
}

}  // namespace tofa::service
