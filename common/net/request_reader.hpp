// Reads one request frame (frame.hpp) from a non-blocking socket as its bytes
// arrive, without ever waiting: the server's I/O thread calls it whenever the
// socket is readable. The credential is verified elsewhere (a worker), so the
// reader stops after it until told how long the body is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tofa::net {

class RequestReader {
 public:
  enum class Stage {
    length,           ///< reading the 4-byte credential length
    credential,       ///< reading the credential
    awaiting_length,  ///< credential complete; the body length comes from its seal
    body,             ///< reading the body
    complete,
  };

  Stage stage() const { return stage_; }
  /// What the current stage does, for messages: "reading credential length",
  /// "reading credential" or "reading body".
  const char* activity() const;

  /// Reads what the socket holds for the current stage (never past it).
  /// Throws Error "ACTIVITY: connection closed after N of M bytes", "credential
  /// length N is outside 1..4096" or "ACTIVITY: <strerror>".
  void read_available(int fd);

  /// The credential, once stage() is past `credential`.
  const std::string& credential() const { return credential_; }

  /// Continues with a body of `length` bytes (from the verified seal).
  void expect_body(std::uint64_t length);

  /// The body, once stage() is `complete`.
  std::string take_body() { return std::move(body_); }

 private:
  /// recv() into `out`; returns false when the socket has nothing now.
  bool receive(int fd, char* out, std::size_t wanted, std::size_t done, std::size_t total,
               std::size_t& got);

  Stage stage_ = Stage::length;
  char prefix_[4] = {};
  std::size_t prefix_done_ = 0;
  std::string credential_;
  std::size_t credential_done_ = 0;
  std::string body_;
  std::uint64_t body_length_ = 0;
};

}  // namespace tofa::net
