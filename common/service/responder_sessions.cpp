#include "service/responder_sessions.hpp"

#include "service/heartbeat_datagram.hpp"

namespace tofa::service {
namespace {
constexpr const char kKeyMagic[] = "TOFAKEY1 ";
}

std::string session_key_payload(const std::string& node, const std::string& key) {
  return kKeyMagic + node + " " + key;
}

std::optional<std::string> key_from_payload(const std::string& node, const std::string& payload) {
  const std::string prefix = kKeyMagic + node + " ";
  if (payload.size() != prefix.size() + kSessionKeyBytes || payload.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return payload.substr(prefix.size());
}

ResponderSessions::ResponderSessions(const std::vector<std::string>& nodes) {
  keys_.reserve(nodes.size());
  for (const std::string& node : nodes) keys_.emplace(node, Session{});
}

void ResponderSessions::set_key(const std::string& node, std::string key) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = keys_.find(node);
  if (found != keys_.end()) found->second = Session{std::move(key), 0};
}

std::optional<std::string> ResponderSessions::answer(const std::string& text,
                                                     const AnswerFilter& filter) {
  const std::optional<Datagram> datagram = parse_datagram(text);
  if (!datagram || datagram->kind != DatagramKind::probe) return std::nullopt;
  std::string key;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = keys_.find(datagram->node);
    if (found == keys_.end()) return std::nullopt;
    Session& session = found->second;
    if (session.key.empty()) return make_no_session(datagram->node, datagram->round);
    if (authentic(*datagram, session.key)) {
      if (datagram->round < session.newest) return std::nullopt;
      session.newest = datagram->round;
      key = session.key;
    }
  }
  if (filter && !filter(datagram->node, datagram->round)) return std::nullopt;
  // A probe under another key: the service no longer holds ours (an offer it
  // gave up on reached us late, e.g. queued while this node was frozen).
  // Saying so gets a new key by TCP this round instead of after the service's
  // back-off; the reply is unsigned, as when we hold no key.
  if (key.empty()) return make_no_session(datagram->node, datagram->round);
  return make_alive(datagram->node, datagram->round, key);
}

}  // namespace tofa::service
