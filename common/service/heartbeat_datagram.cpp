#include "service/heartbeat_datagram.hpp"

#include <cctype>

#include "net/hmac.hpp"
#include "net/sha256.hpp"

namespace tofa::service {
namespace {

constexpr const char kMagic[] = "TOFAHB1";

const char* word_of(DatagramKind kind) {
  switch (kind) {
    case DatagramKind::probe: return "PROBE";
    case DatagramKind::alive: return "ALIVE";
    case DatagramKind::no_session: return "NOSESSION";
  }
  return "";
}

std::string unsigned_part(DatagramKind kind, const std::string& node, std::uint64_t round) {
  return std::string(kMagic) + " " + word_of(kind) + " " + node + " " + std::to_string(round);
}

std::string mac_of(const std::string& text, const std::string& key) {
  return net::to_hex(net::hmac_sha256(key, text));
}

std::string sealed(DatagramKind kind, const std::string& node, std::uint64_t round,
                   const std::string& key) {
  const std::string text = unsigned_part(kind, node, round);
  return text + " " + mac_of(text, key);
}

bool plain_word(const std::string& word) {
  if (word.empty()) return false;
  for (unsigned char c : word)
    if (!std::isgraph(c)) return false;
  return true;
}

}  // namespace

std::string make_probe(const std::string& node, std::uint64_t round, const std::string& key) {
  return sealed(DatagramKind::probe, node, round, key);
}

std::string make_alive(const std::string& node, std::uint64_t round, const std::string& key) {
  return sealed(DatagramKind::alive, node, round, key);
}

std::string make_no_session(const std::string& node, std::uint64_t round) {
  return unsigned_part(DatagramKind::no_session, node, round);
}

std::optional<Datagram> parse_datagram(const std::string& text) {
  if (text.size() > kMaxDatagramBytes) return std::nullopt;
  std::string words[5];
  std::size_t count = 0, at = 0;
  while (at <= text.size() && count < 6) {
    const std::size_t space = text.find(' ', at);
    const std::size_t end = space == std::string::npos ? text.size() : space;
    if (count == 5) return std::nullopt;  // a sixth word
    words[count++] = text.substr(at, end - at);
    if (space == std::string::npos) break;
    at = space + 1;
  }
  if (count < 4 || words[0] != kMagic) return std::nullopt;
  Datagram datagram;
  if (words[1] == "PROBE") datagram.kind = DatagramKind::probe;
  else if (words[1] == "ALIVE") datagram.kind = DatagramKind::alive;
  else if (words[1] == "NOSESSION") datagram.kind = DatagramKind::no_session;
  else return std::nullopt;
  const bool has_mac = datagram.kind != DatagramKind::no_session;
  if (count != (has_mac ? 5u : 4u) || !plain_word(words[2])) return std::nullopt;
  const std::string& round = words[3];
  if (round.empty() || round.size() > 19) return std::nullopt;
  for (char c : round)
    if (c < '0' || c > '9') return std::nullopt;
  datagram.node = words[2];
  datagram.round = std::stoull(round);
  if (has_mac) {
    if (words[4].size() != 64) return std::nullopt;
    datagram.mac_hex = words[4];
  }
  return datagram;
}

bool authentic(const Datagram& datagram, const std::string& key) {
  if (datagram.kind == DatagramKind::no_session || key.empty()) return false;
  return net::equal_in_constant_time(
      datagram.mac_hex, mac_of(unsigned_part(datagram.kind, datagram.node, datagram.round), key));
}

}  // namespace tofa::service
