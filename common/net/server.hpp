// A small TCP server answering munge-authenticated requests (see frame.hpp).
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "net/admission.hpp"
#include "net/frame.hpp"
#include "net/log_limiter.hpp"
#include "net/munge_codec.hpp"
#include "net/socket_io.hpp"
#include "net/worker_pool.hpp"

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
  /// From accept until the whole credential (length and text) has arrived.
  std::chrono::milliseconds header_timeout{2000};
  /// For the body once the credential is verified, and again for sending the reply.
  std::chrono::milliseconds io_timeout{5000};
  std::size_t max_body = std::size_t(64) << 20;  ///< largest request body accepted
  /// Open connections, overall and from one peer address; see admission.hpp.
  std::size_t max_connections = 512;
  std::size_t max_connections_per_peer = 256;
  int backlog = 1024;  ///< listen() backlog (the kernel caps it at somaxconn)
  /// Threads verifying credentials, running the handler and sealing replies.
  int workers = 2;
  /// Reports rejected connections and failed replies, one line each
  /// ("request from PEER: REASON"). Called from the server's threads; empty = stderr.
  std::function<void(const std::string&)> log_error;
};

struct ServerConnection;

/// Listens on construction, serves until stop() or destruction.
///
/// One I/O thread accepts every connection and does all socket I/O without
/// blocking: it reads the credential, has a worker verify it with munged,
/// reads the body, has a worker run the handler and seal the reply, and
/// writes the reply. A peer that is slow or idle holds only its connection
/// (bounded by the deadlines and the connection limits), never a thread.
///
/// One connection carries one request and one reply. Anything malformed
/// (bad length, garbage, truncated or slow input, a credential munged
/// rejects, a body not matching its seal) closes the connection and is
/// logged; when the credential was at least read and munged or the seal
/// rejects it, the peer first gets an "ERROR <reason>" reply. Requests over
/// max_body are refused after the credential is verified and before the body
/// is read.
class Server {
 public:
  /// Binds and starts the threads. Throws tofa::Error "bind HOST:PORT: TEXT".
  Server(ServerOptions options, Handler handler);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The bound port (the ephemeral one when options.port was 0).
  int port() const { return port_; }

  /// Closes the listener and every connection (logging those still being
  /// read as "cancelled"), waits for running handlers to return and joins
  /// all threads. Idempotent; must not be called from a handler.
  void stop();

 private:
  using Connection = ServerConnection;  // server_connection.hpp
  /// What a worker hands back to the I/O thread about one connection.
  struct Completion {
    enum class Kind { seal_opened, reply_ready, close };
    std::uint64_t id = 0;
    Kind kind = Kind::close;
    uid_t uid = 0;
    gid_t gid = 0;
    SealedBody sealed;
    std::string header, body;  // reply_ready: the encoded reply
  };
  using Clock = std::chrono::steady_clock;

  // server.cpp: setup, logging and the workers' jobs.
  /// Peers cause most of these lines (before any authentication): a few of
  /// each kind per interval, control characters escaped.
  void log(const std::string& line) const;
  void verify(std::uint64_t id, const std::string& peer, const std::string& credential);
  void handle(std::uint64_t id, const Request& request, const std::string& credential,
              const SealedBody& sealed);
  Completion reply(std::uint64_t id, const std::string& peer, const std::string& credential,
                   const std::string& text) const;
  void complete(Completion completion);

  // server_loop.cpp: the I/O thread.
  void run();
  void loop_once();
  void accept_connections();
  void admit(Fd fd);
  void on_ready(Connection& connection, std::uint32_t events);
  void read_request(Connection& connection);
  void write_reply(Connection& connection);
  void apply(Completion& completion);
  void expire_deadlines();
  int wait_timeout_ms() const;
  void set_deadline(Connection& connection, std::optional<Clock::time_point> deadline);
  void watch(Connection& connection, std::uint32_t events);
  void drop(Connection& connection, const std::string& why);
  void close_all();

  ServerOptions options_;
  mutable LogLimiter log_limiter_;
  Handler handler_;
  MungeCodec codec_;
  Fd listener_;
  Fd epoll_;
  Fd wake_;  // eventfd: completions queued or stop() begun
  int port_ = 0;
  std::atomic<bool> stopping_{false};

  std::mutex completions_mutex_;
  std::vector<Completion> completions_;

  // Owned by the I/O thread.
  Admission admission_;
  std::unordered_map<std::uint64_t, std::unique_ptr<Connection>> connections_;
  std::set<std::pair<Clock::time_point, std::uint64_t>> deadlines_;
  std::uint64_t next_id_ = 2;  // 0 and 1 tag the listener and wake_ in epoll
  std::optional<Clock::time_point> accept_paused_until_;

  std::unique_ptr<WorkerPool> workers_;
  std::thread io_thread_;
  std::mutex stop_mutex_;
};

}  // namespace tofa::net
