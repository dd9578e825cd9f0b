// SHA-256 from nettle (Debian's libnettle, also behind GnuTLS): the transport
// binds each message body to its munge credential with this digest.
#include "net/sha256.hpp"

#include <nettle/sha2.h>

#include <cstdint>

namespace tofa::net {

std::string sha256(const std::string& data) {
  sha256_ctx context;
  sha256_init(&context);
  sha256_update(&context, data.size(), reinterpret_cast<const std::uint8_t*>(data.data()));
  std::string digest(SHA256_DIGEST_SIZE, '\0');
  sha256_digest(&context, SHA256_DIGEST_SIZE, reinterpret_cast<std::uint8_t*>(&digest[0]));
  return digest;
}

std::string to_hex(const std::string& bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace tofa::net
