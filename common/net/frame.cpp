#include "net/frame.hpp"

#include <cstdint>

#include "net/sha256.hpp"
#include "tofa/error.hpp"

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

std::string send_frame(int fd, const MungeCodec& codec, FrameKind kind, const std::string& body,
                       const std::string& binding, const Deadline& deadline, int cancel_fd) {
  std::string credential = codec.encode(make_seal(kind, body, binding));
  std::string header;
  put_be(header, credential.size(), 4);
  header += credential;
  write_all(fd, header, deadline, cancel_fd, "sending credential");
  write_all(fd, body, deadline, cancel_fd, "sending body");
  return credential;
}

Frame receive_frame(int fd, const MungeCodec& codec, FrameKind kind, const std::string& binding,
                    std::size_t max_body, const Deadline& deadline, int cancel_fd,
                    std::string* credential_out) {
  char prefix[4];
  read_exact(fd, prefix, 4, deadline, cancel_fd, "reading credential length");
  std::uint64_t cred_len = get_be(prefix, 4);
  if (cred_len == 0 || cred_len > kMaxCredentialBytes)
    throw Error("credential length " + std::to_string(cred_len) + " is outside 1.." +
                std::to_string(kMaxCredentialBytes));

  std::string credential(cred_len, '\0');
  read_exact(fd, &credential[0], credential.size(), deadline, cancel_fd, "reading credential");
  if (credential_out) *credential_out = credential;
  if (credential.find('\0') != std::string::npos) throw Error("credential contains a NUL byte");

  MungeDecoded decoded = codec.decode(credential);
  const std::string& seal = decoded.payload;
  if (seal.size() != kSealBytes || seal.compare(0, kMagic.size(), kMagic) != 0)
    throw Error("credential payload is not a tofa frame seal");
  if (seal[8] != static_cast<char>(kind))
    throw Error(std::string("expected a ") + (kind == FrameKind::request ? "request" : "reply") +
                " frame, got kind '" + seal[8] + "'");
  std::uint64_t body_len = get_be(&seal[9], 8);
  if (body_len > max_body)
    throw Error("body of " + std::to_string(body_len) + " bytes exceeds the limit of " +
                std::to_string(max_body) + " bytes");
  if (seal.compare(49, 32, binding) != 0)
    throw Error(kind == FrameKind::reply ? "reply does not answer this request"
                                         : "request seal carries a binding");

  Frame frame;
  frame.uid = decoded.uid;
  frame.gid = decoded.gid;
  frame.body.resize(body_len);
  if (body_len > 0) read_exact(fd, &frame.body[0], body_len, deadline, cancel_fd, "reading body");
  if (seal.compare(17, 32, sha256(frame.body)) != 0)
    throw Error("body does not match its credential (SHA-256 differs)");
  return frame;
}

}  // namespace tofa::net
