#include "net/hmac.hpp"

#include <nettle/hmac.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "base/error.hpp"

namespace tofa::net {

std::string hmac_sha256(const std::string& key, const std::string& message) {
  hmac_sha256_ctx context;
  hmac_sha256_set_key(&context, key.size(), reinterpret_cast<const std::uint8_t*>(key.data()));
  hmac_sha256_update(&context, message.size(),
                     reinterpret_cast<const std::uint8_t*>(message.data()));
  std::string digest(SHA256_DIGEST_SIZE, '\0');
  hmac_sha256_digest(&context, SHA256_DIGEST_SIZE, reinterpret_cast<std::uint8_t*>(&digest[0]));
  return digest;
}

bool equal_in_constant_time(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    differ |= static_cast<unsigned char>(a[i] ^ b[i]);
  return differ == 0;
}

std::string random_bytes(std::size_t count) {
  std::string bytes(count, '\0');
  std::size_t filled = 0;
  while (filled < count) {
    const ssize_t got = ::getrandom(&bytes[filled], count - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("getrandom: ") + std::strerror(errno));
    }
    filled += static_cast<std::size_t>(got);
  }
  return bytes;
}

}  // namespace tofa::net
