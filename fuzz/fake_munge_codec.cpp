// A MungeCodec without munged, linked into the fuzz targets in place of
// common/net/munge_codec.cpp: a credential is "FAKE:" and the payload in
// hexadecimal, vouched for as uid 1000. It lets the frame fuzzer reach the
// checks after munge_decode, which real credentials would need a daemon and
// a key for.
#include <string>

#include "base/error.hpp"
#include "net/munge_codec.hpp"

namespace tofa::net {
namespace {

const std::string kPrefix = "FAKE:";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

MungeCodec::MungeCodec(std::string socket_path, int ttl_seconds)
    : socket_path_(std::move(socket_path)), ttl_seconds_(ttl_seconds) {}

std::string MungeCodec::encode(const std::string& payload) const {
  static const char digits[] = "0123456789abcdef";
  std::string credential = kPrefix;
  for (unsigned char c : payload) {
    credential += digits[c >> 4];
    credential += digits[c & 15];
  }
  return credential;
}

MungeDecoded MungeCodec::decode(const std::string& credential) const {
  const MungeError invalid("munge_decode: Invalid credential", true);
  if (credential.compare(0, kPrefix.size(), kPrefix) != 0) throw invalid;
  if ((credential.size() - kPrefix.size()) % 2 != 0) throw invalid;
  MungeDecoded decoded;
  decoded.uid = 1000;
  decoded.gid = 1000;
  for (std::size_t i = kPrefix.size(); i < credential.size(); i += 2) {
    const int high = hex_value(credential[i]), low = hex_value(credential[i + 1]);
    if (high < 0 || low < 0) throw invalid;
    decoded.payload += static_cast<char>(high << 4 | low);
  }
  return decoded;
}

}  // namespace tofa::net
