// The tofa wire format: one munge-authenticated message on a TCP stream.
//
//   frame = CRED_LEN  4 bytes, unsigned big-endian, 1..kMaxCredentialBytes
//           CRED      CRED_LEN bytes: a munge credential (base64 text, no NUL)
//           BODY      BODY_LEN bytes, BODY_LEN taken from the seal
//
// The credential's payload (the "seal") is exactly kSealBytes bytes:
//   [0,8)   "TOFANET1"
//   [8]     kind: 'Q' request, 'R' reply
//   [9,17)  BODY_LEN, unsigned 64-bit big-endian
//   [17,49) SHA-256(BODY)
//   [49,81) binding: 32 zero bytes in a request; in a reply, SHA-256 of the
//           request's CRED, so a reply cannot be replayed onto another request.
//
// The body travels beside the credential, not inside it, because munged
// refuses messages over about 1 MiB. A receiver reads and verifies the
// credential before it allocates anything for the body, so only an
// authenticated peer can make it allocate up to its body limit.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "net/munge_codec.hpp"
#include "net/socket_io.hpp"

namespace tofa::net {

enum class FrameKind : char { request = 'Q', reply = 'R' };

constexpr std::size_t kMaxCredentialBytes = 4096;  // a seal credential is ~200 bytes
constexpr std::size_t kSealBytes = 81;

/// A frame that fails authentication: munged refuses its credential, or the
/// seal is not a tofa seal of the expected kind and binding, or the body does
/// not match the seal (also: a client's reply from an unexpected uid). A
/// receiver treats it as a forgery or a replay, not as a lost message.
class AuthenticationError : public Error {
 public:
  using Error::Error;
};

/// A verified frame.
struct Frame {
  std::string body;
  uid_t uid = 0;  ///< who encoded the credential, as vouched for by munged
  gid_t gid = 0;
};

/// The binding expected in a request (32 zero bytes).
std::string no_binding();
/// The binding a reply to a request sent with `request_credential` carries.
std::string binding_for(const std::string& request_credential);

/// The seal bytes described above.
std::string make_seal(FrameKind kind, const std::string& body, const std::string& binding);

/// The credential length a 4-byte prefix announces. Throws Error "credential
/// length N is outside 1..4096".
std::size_t credential_length(const char prefix[4]);

/// Decodes `credential` (throws MungeError for a local munge failure and
/// AuthenticationError when the credential is refused, e.g. "munge_decode:
/// Replayed credential").
MungeDecoded decode_credential(const MungeCodec& codec, const std::string& credential);

/// What a verified seal says about the body that follows it.
struct SealedBody {
  std::uint64_t length = 0;
  std::string digest;  ///< SHA-256 the body must have
};

/// Checks a decoded seal's magic, kind, body limit and binding. Throws
/// AuthenticationError, or Error "body of N bytes exceeds the limit of M bytes".
SealedBody open_seal(const std::string& seal, FrameKind kind, const std::string& binding,
                     std::size_t max_body);

/// Throws AuthenticationError unless `body` is what the seal announced.
void check_body(const std::string& body, const SealedBody& sealed);

/// A frame ready to send: its credential and the bytes that precede the body.
struct EncodedFrame {
  std::string credential;
  std::string header;  ///< CRED_LEN + CRED
};

/// Seals `body` in a fresh credential. Throws MungeError.
EncodedFrame encode_frame(const MungeCodec& codec, FrameKind kind, const std::string& body,
                          const std::string& binding);

/// Sends one frame; returns the credential used (a client needs it to check
/// the reply's binding). Throws tofa::Error from munge or the socket.
std::string send_frame(int fd, const MungeCodec& codec, FrameKind kind, const std::string& body,
                       const std::string& binding, const Deadline& deadline, int cancel_fd);

/// Receives and verifies one frame of `kind` whose seal carries `binding`.
/// `credential_out`, if given, receives the credential text as soon as it is
/// read (so a server can answer even a credential munge rejects).
/// Throws tofa::Error with a precise reason; see frame.cpp for the texts.
Frame receive_frame(int fd, const MungeCodec& codec, FrameKind kind, const std::string& binding,
                    std::size_t max_body, const Deadline& deadline, int cancel_fd,
                    std::string* credential_out = nullptr);

}  // namespace tofa::net
