// Writes one encoded reply frame to a non-blocking socket as far as the
// socket takes it, without ever waiting (the server's I/O thread calls it
// whenever the socket is writable).
#pragma once

#include <cstddef>
#include <string>

namespace tofa::net {

class ReplyWriter {
 public:
  ReplyWriter() = default;
  /// `header` is CRED_LEN + CRED, `body` the reply body (frame.hpp).
  ReplyWriter(std::string header, std::string body)
      : header_(std::move(header)), body_(std::move(body)) {}

  /// Sends what the socket accepts now; true once everything is sent.
  /// Throws Error "sending reply: <strerror>" (never raises SIGPIPE).
  bool write_available(int fd);

 private:
  std::string header_;
  std::string body_;
  std::size_t sent_ = 0;  // over header_ then body_
};

}  // namespace tofa::net
