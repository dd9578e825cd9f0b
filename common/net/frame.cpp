#include "net/frame.hpp"

#include <cstdint>

#include "base/error.hpp"
#include "net/sha256.hpp"

namespace tofa::net {
namespace {

const std::string kMagic = "TOFANET1";

void put_be(std::string& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

std::uint64_t get_be(const char* in, int bytes) {
  std::uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value = value << 8 | static_cast<unsigned char>(in[i]);
  return value;
}

}  // namespace

std::string no_binding() { return std::string(32, '\0'); }

std::string binding_for(const std::string& request_credential) {
  return sha256(request_credential);
}

std::string make_seal(FrameKind kind, const std::string& body, const std::string& binding) {
  std::string seal = kMagic;
  seal += static_cast<char>(kind);
  put_be(seal, body.size(), 8);
  seal += sha256(body);
  seal += binding;
  return seal;
}

std::size_t credential_length(const char prefix[4]) {
  const std::uint64_t length = get_be(prefix, 4);
  if (length == 0 || length > kMaxCredentialBytes)
    throw Error("credential length " + std::to_string(length) + " is outside 1.." +
                std::to_string(kMaxCredentialBytes));
  return static_cast<std::size_t>(length);
}

MungeDecoded decode_credential(const MungeCodec& codec, const std::string& credential) {
  if (credential.find('\0') != std::string::npos)
    throw AuthenticationError("credential contains a NUL byte");
  try {
    return codec.decode(credential);
  } catch (const MungeError& e) {
    if (e.credential_refused()) throw AuthenticationError(e.what());
    throw;
  }
}

SealedBody open_seal(const std::string& seal, FrameKind kind, const std::string& binding,
                     std::size_t max_body) {
  if (seal.size() != kSealBytes || seal.compare(0, kMagic.size(), kMagic) != 0)
    throw AuthenticationError("credential payload is not a tofa frame seal");
  if (seal[8] != static_cast<char>(kind))
    throw AuthenticationError(std::string("expected a ") +
                              (kind == FrameKind::request ? "request" : "reply") +
                              " frame, got kind '" + seal[8] + "'");
  if (seal.compare(49, 32, binding) != 0)
    throw AuthenticationError(kind == FrameKind::reply ? "reply does not answer this request"
                                                       : "request seal carries a binding");
  SealedBody sealed;
  sealed.length = get_be(&seal[9], 8);
  if (sealed.length > max_body)
    throw Error("body of " + std::to_string(sealed.length) + " bytes exceeds the limit of " +
                std::to_string(max_body) + " bytes");
  sealed.digest = seal.substr(17, 32);
  return sealed;
}

void check_body(const std::string& body, const SealedBody& sealed) {
  if (body.size() != sealed.length || sha256(body) != sealed.digest)
    throw AuthenticationError("body does not match its credential (SHA-256 differs)");
}

EncodedFrame encode_frame(const MungeCodec& codec, FrameKind kind, const std::string& body,
                          const std::string& binding) {
  EncodedFrame frame;
  frame.credential = codec.encode(make_seal(kind, body, binding));
  put_be(frame.header, frame.credential.size(), 4);
  frame.header += frame.credential;
  return frame;
}

std::string send_frame(int fd, const MungeCodec& codec, FrameKind kind, const std::string& body,
                       const std::string& binding, const Deadline& deadline, int cancel_fd) {
  EncodedFrame frame = encode_frame(codec, kind, body, binding);
  write_all(fd, frame.header, deadline, cancel_fd, "sending credential");
  write_all(fd, body, deadline, cancel_fd, "sending body");
  return frame.credential;
}

Frame receive_frame(int fd, const MungeCodec& codec, FrameKind kind, const std::string& binding,
                    std::size_t max_body, const Deadline& deadline, int cancel_fd,
                    std::string* credential_out) {
  char prefix[4];
  read_exact(fd, prefix, 4, deadline, cancel_fd, "reading credential length");
  std::string credential(credential_length(prefix), '\0');
  read_exact(fd, &credential[0], credential.size(), deadline, cancel_fd, "reading credential");
  if (credential_out) *credential_out = credential;

  MungeDecoded decoded = decode_credential(codec, credential);
  const SealedBody sealed = open_seal(decoded.payload, kind, binding, max_body);
  Frame frame;
  frame.uid = decoded.uid;
  frame.gid = decoded.gid;
  frame.body.resize(sealed.length);
  if (sealed.length > 0)
    read_exact(fd, &frame.body[0], frame.body.size(), deadline, cancel_fd, "reading body");
  check_body(frame.body, sealed);
  return frame;
}

}  // namespace tofa::net
