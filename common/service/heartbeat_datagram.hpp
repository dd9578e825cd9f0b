// Session heartbeats: once a munge-authenticated TCP heartbeat has handed a
// responder a secret key (the "session"), the service heartbeats that node
// with one UDP datagram per round, authenticated with HMAC-SHA256 under the
// key instead of two munge credentials:
//
//   probe     "TOFAHB1 PROBE <node> <round> <mac>"   service -> responder
//   alive     "TOFAHB1 ALIVE <node> <round> <mac>"   responder -> service
//   no session "TOFAHB1 NOSESSION <node> <round>"    responder -> service
//
// <mac> is the lowercase hex HMAC-SHA256 of everything before " <mac>". A
// round number only grows, so the responder refuses a probe older than the
// newest it answered (a replay) and the service accepts only an answer to
// this round's probe. NOSESSION carries no MAC: a responder that restarted
// has no key; it only makes the service fall back to the TCP heartbeat,
// which decides on its own whether the node is alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace tofa::service {

constexpr std::size_t kSessionKeyBytes = 32;
constexpr std::size_t kMaxDatagramBytes = 512;

enum class DatagramKind { probe, alive, no_session };

struct Datagram {
  DatagramKind kind = DatagramKind::probe;
  std::string node;
  std::uint64_t round = 0;
  std::string mac_hex;  ///< empty for no_session
};

std::string make_probe(const std::string& node, std::uint64_t round, const std::string& key);
std::string make_alive(const std::string& node, std::uint64_t round, const std::string& key);
std::string make_no_session(const std::string& node, std::uint64_t round);

/// nullopt for anything that is not a well-formed datagram of this format
/// (datagrams come from anyone; a malformed one is dropped, not reported).
std::optional<Datagram> parse_datagram(const std::string& text);

/// True when `datagram` carries the right MAC under `key` (probe or alive).
bool authentic(const Datagram& datagram, const std::string& key);

}  // namespace tofa::service
