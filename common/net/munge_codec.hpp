// Thin C++ wrapper over libmunge: turn a payload into a credential and back.
#pragma once

#include <sys/types.h>

#include <string>

namespace tofa::net {

/// What a valid credential carried.
struct MungeDecoded {
  std::string payload;
  uid_t uid = 0;  ///< uid of the process that encoded the credential
  gid_t gid = 0;
};

/// Encodes and decodes munge credentials through one munged socket.
/// Thread-safe: every call uses its own munge context.
/// munged refuses requests over about 1 MiB, so payloads must stay small
/// (the transport only puts a fixed 81-byte seal in a credential).
class MungeCodec {
 public:
  /// `socket_path` empty means libmunge's default (/run/munge/munge.socket.2).
  explicit MungeCodec(std::string socket_path = "");

  /// A NUL-free base64 credential ("MUNGE:...:") carrying `payload`.
  /// Throws tofa::Error "munge_encode: TEXT" (TEXT from libmunge) on failure.
  std::string encode(const std::string& payload) const;

  /// Validates `credential` and returns its payload and the encoder's uid/gid.
  /// Throws tofa::Error "munge_decode: TEXT", e.g. "munge_decode: Invalid
  /// credential", "... Expired credential", "... Replayed credential".
  MungeDecoded decode(const std::string& credential) const;

  const std::string& socket_path() const { return socket_path_; }

 private:
  std::string socket_path_;
};

}  // namespace tofa::net
