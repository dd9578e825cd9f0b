// One authenticated request/reply exchange with a tofa::net::Server.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

namespace tofa::net {

struct Reply {
  std::string body;  ///< server-side failures arrive as "ERROR <text>"
  uid_t uid = 0;     ///< uid that encoded the reply, vouched for by munge
  gid_t gid = 0;
};

struct ClientOptions {
  std::string munge_socket;  ///< "" = libmunge's default socket
  /// Budget for the whole exchange: connect, send, server work, receive.
  std::chrono::milliseconds timeout{5000};
  std::size_t max_body = std::size_t(64) << 20;  ///< limit for the request and the reply body
  /// If set, a reply encoded by any other uid is rejected (e.g. SlurmUser).
  std::optional<uid_t> expected_uid;
};

/// Sends `body` to host:port and returns the verified reply.
/// Throws ConnectError "connect to HOST:PORT: TEXT" when no connection is
/// made; otherwise "request to HOST:PORT: REASON", REASON being e.g.
/// "body of N bytes exceeds the limit of M bytes" (checked before
/// connecting), "reading credential length: timed out", "munge_decode:
/// Invalid credential", or "reply came from uid U, expected uid E". A reply
/// that fails verification throws AuthenticationError (frame.hpp); a local
/// munged failure throws MungeError (munge_codec.hpp).
Reply request(const std::string& host, int port, const std::string& body,
              const ClientOptions& options = {});

}  // namespace tofa::net
