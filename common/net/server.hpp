// A small TCP server answering munge-authenticated requests (see frame.hpp).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/munge_codec.hpp"
#include "net/socket_io.hpp"

namespace tofa::net {

/// An authenticated request as the handler sees it.
struct Request {
  std::string body;
  uid_t uid = 0;     ///< sender's uid, vouched for by munge
  gid_t gid = 0;
  std::string peer;  ///< "ADDRESS:PORT" of the connection (informational, not authenticated)
};

/// Returns the reply body. An exception becomes the reply "ERROR <what()>".
/// Called from worker threads, possibly concurrently.
using Handler = std::function<std::string(const Request&)>;

struct ServerOptions {
  std::string host = "0.0.0.0";  ///< address to bind
  int port = 0;                  ///< 0: an ephemeral port, see Server::port()
  std::string munge_socket;      ///< "" = libmunge's default socket
  /// Budget for receiving one whole request, and again for sending its reply.
  std::chrono::milliseconds io_timeout{5000};
  std::size_t max_body = std::size_t(64) << 20;  ///< largest request body accepted
  int workers = 2;  ///< connections served at once (each worker: accept, serve, repeat)
  /// Reports rejected connections and failed replies, one line each
  /// ("request from PEER: REASON"). Called from worker threads; empty = stderr.
  std::function<void(const std::string&)> log_error;
};

/// Listens on construction, serves until stop() or destruction.
///
/// One connection carries one request and one reply. Anything malformed
/// (bad length, garbage, truncated or slow input, a credential munged
/// rejects, a body not matching its seal) closes the connection and is
/// logged; when the credential was at least read, the peer first gets an
/// "ERROR <reason>" reply. Requests over max_body are refused after the
/// credential is verified and before the body is allocated.
class Server {
 public:
  /// Binds and starts the workers. Throws tofa::Error "bind HOST:PORT: TEXT".
  Server(ServerOptions options, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The bound port (the ephemeral one when options.port was 0).
  int port() const { return port_; }

  /// Interrupts pending I/O, waits for running handlers to return, joins the
  /// workers and closes the socket. Idempotent; must not be called from a handler.
  void stop();

 private:
  void work();
  void serve(Fd connection);
  void log(const std::string& line) const;

  ServerOptions options_;
  Handler handler_;
  MungeCodec codec_;
  Fd listener_;
  Fd stop_event_;  // eventfd, readable once stop() has begun
  int port_ = 0;
  std::vector<std::thread> workers_;
  std::mutex stop_mutex_;
};

}  // namespace tofa::net
