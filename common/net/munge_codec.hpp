// Thin C++ wrapper over libmunge: turn a payload into a credential and back.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include "base/error.hpp"

namespace tofa::net {

/// What a valid credential carried.
struct MungeDecoded {
  std::string payload;
  uid_t uid = 0;  ///< uid of the process that encoded the credential
  gid_t gid = 0;
};

/// A failed munge call. Either the credential itself was refused (invalid,
/// expired, replayed, ... : the peer is not who it claims to be) or munged
/// could not do the work (unreachable, out of memory: a local problem).
class MungeError : public Error {
 public:
  MungeError(const std::string& what, bool credential_refused)
      : Error(what), credential_refused_(credential_refused) {}
  bool credential_refused() const { return credential_refused_; }

 private:
  bool credential_refused_;
};

/// Encodes and decodes munge credentials through one munged socket.
/// Thread-safe: every call uses its own munge context.
/// munged refuses requests over about 1 MiB, so payloads must stay small
/// (the transport only puts a fixed 81-byte seal in a credential).
class MungeCodec {
 public:
  /// `socket_path` empty means libmunge's default (/run/munge/munge.socket.2).
  /// `ttl_seconds` 0 means munged's default time-to-live (300 s).
  explicit MungeCodec(std::string socket_path = "", int ttl_seconds = 0);

  /// A NUL-free base64 credential ("MUNGE:...:") carrying `payload`.
  /// Throws MungeError "munge_encode: TEXT" (TEXT from libmunge) on failure.
  std::string encode(const std::string& payload) const;

  /// As encode, but only a process of uid `reader` (or root) can decode it;
  /// munge encrypts the payload, so it stays secret on the wire.
  std::string encode_for(const std::string& payload, uid_t reader) const;

  /// Validates `credential` and returns its payload and the encoder's uid/gid.
  /// Throws MungeError "munge_decode: TEXT", e.g. "munge_decode: Invalid
  /// credential", "... Expired credential", "... Replayed credential" (munged
  /// remembers every credential it decoded until it expires, so a captured
  /// credential is good for exactly one decode).
  MungeDecoded decode(const std::string& credential) const;

  const std::string& socket_path() const { return socket_path_; }

 private:
  std::string encode_restricted(const std::string& payload, std::optional<uid_t> reader) const;

  std::string socket_path_;
  int ttl_seconds_;
};

}  // namespace tofa::net
