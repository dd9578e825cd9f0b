// Blocking-style socket I/O on non-blocking descriptors, bounded by a deadline
// and interruptible through a "cancel" descriptor (readable = give up).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "base/error.hpp"

namespace tofa::net {

/// No connection could be made ("connect to HOST:PORT: TEXT").
class ConnectError : public Error {
 public:
  using Error::Error;
};

/// Owns a file descriptor; closes it on destruction.
/// The peer closed or reset the connection. `before_any_byte` is true when
/// nothing of the current read had arrived, or a write failed.
class PeerClosed : public Error {
 public:
  PeerClosed(const std::string& what, bool before_any_byte)
      : Error(what), before_any_byte_(before_any_byte) {}
  bool before_any_byte() const { return before_any_byte_; }

 private:
  bool before_any_byte_;
};

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release();
  void reset();

 private:
  int fd_ = -1;
};

/// A point in time after which I/O gives up.
class Deadline {
 public:
  explicit Deadline(std::chrono::milliseconds budget)
      : end_(std::chrono::steady_clock::now() + budget) {}
  /// Milliseconds left, rounded up, never negative (a poll() timeout).
  int remaining_ms() const;

 private:
  std::chrono::steady_clock::time_point end_;
};

/// Reads exactly `size` bytes into `out`. Throws tofa::Error "WHAT: timed
/// out", "WHAT: connection closed after N of M bytes", "WHAT: cancelled" or
/// "WHAT: <strerror>". `cancel_fd` < 0 means not cancellable.
void read_exact(int fd, char* out, std::size_t size, const Deadline& deadline, int cancel_fd,
                const std::string& what);

/// Waits until at least one byte can be read, leaving it unread. Throws
/// PeerClosed (before_any_byte) when the peer closes first, else as read_exact.
void await_first_byte(int fd, const Deadline& deadline, const std::string& what);

/// Writes all of `data` (never raises SIGPIPE). Same errors as read_exact.
void write_all(int fd, const std::string& data, const Deadline& deadline, int cancel_fd,
               const std::string& what);

/// A connected non-blocking TCP socket to host:port (IPv4 or IPv6).
/// Throws ConnectError "connect to HOST:PORT: TEXT".
Fd connect_tcp(const std::string& host, int port, const Deadline& deadline);

/// "ADDRESS:PORT" of the socket's peer, or "?" when unknown.
std::string peer_name(int fd);

}  // namespace tofa::net
