#include "service/session_prober.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <chrono>

#include "service/heartbeat_datagram.hpp"

namespace tofa::service {
namespace {

constexpr int kSocketBufferBytes = 16 << 20;
constexpr std::size_t kSendsBetweenReads = 256;  // keeps the receive buffer from overflowing

using Clock = std::chrono::steady_clock;

Clock::time_point after(Clock::time_point start, double seconds) {
  return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

void SessionProber::start_session(const HeartbeatTarget& target, std::string key) {
  Session session{target.host, target.port, std::move(key),
                  net::resolve_datagram(target.host, target.port)};
  sessions_[target.name] = std::move(session);
}

bool SessionProber::has_session(const HeartbeatTarget& target) const {
  const auto found = sessions_.find(target.name);
  return found != sessions_.end() && found->second.host == target.host &&
         found->second.port == target.port;
}

int SessionProber::socket_for(int family) {
  net::Fd& fd = family == AF_INET6 ? ipv6_ : ipv4_;
  if (fd.get() < 0) fd = net::open_datagram_socket(family, kSocketBufferBytes);
  return fd.get();
}

void SessionProber::collect(std::uint64_t round,
                            const std::unordered_map<std::string, std::size_t>& index,
                            std::vector<ProbeOutcome>& outcomes, std::size_t& pending) {
  for (net::Fd* fd : {&ipv4_, &ipv6_}) {
    if (fd->get() < 0) continue;
    while (std::optional<std::string> text =
               net::receive_datagram(fd->get(), kMaxDatagramBytes, nullptr)) {
      const std::optional<Datagram> reply = parse_datagram(*text);
      if (!reply || reply->round != round) continue;
      const auto found = index.find(reply->node);
      if (found == index.end() || outcomes[found->second] != ProbeOutcome::missed) continue;
      if (reply->kind == DatagramKind::no_session) {
        outcomes[found->second] = ProbeOutcome::needs_tcp;
      } else if (reply->kind == DatagramKind::alive &&
                 authentic(*reply, sessions_.at(reply->node).key)) {
        outcomes[found->second] = ProbeOutcome::answered;
      } else {
        continue;
      }
      --pending;
    }
  }
}

std::vector<ProbeOutcome> SessionProber::probe(const std::vector<HeartbeatTarget>& targets,
                                               std::uint64_t round, double timeout,
                                               const std::atomic<bool>& stopping) {
  // Until a reply comes, a target with a session counts as missed.
  std::vector<ProbeOutcome> outcomes(targets.size(), ProbeOutcome::needs_tcp);
  std::unordered_map<std::string, std::size_t> index;
  std::vector<std::size_t> probed;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (!has_session(targets[i])) continue;
    outcomes[i] = ProbeOutcome::missed;
    index.emplace(targets[i].name, i);
    probed.push_back(i);
  }
  std::size_t pending = probed.size();
  auto send_to_silent = [&] {
    std::size_t sent = 0;
    for (std::size_t i : probed) {
      if (stopping) return;
      if (outcomes[i] != ProbeOutcome::missed) continue;
      const Session& session = sessions_.at(targets[i].name);
      net::send_datagram(socket_for(session.address.family()),
                         make_probe(targets[i].name, round, session.key), session.address);
      if (++sent % kSendsBetweenReads == 0) collect(round, index, outcomes, pending);
    }
  };
  auto wait_until = [&](Clock::time_point until) {
    while (pending > 0 && !stopping) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
      if (left.count() <= 0) return;
      pollfd ready[2] = {{ipv4_.get(), POLLIN, 0}, {ipv6_.get(), POLLIN, 0}};
      ::poll(ready, 2, static_cast<int>(std::min<long long>(left.count() + 1, 200)));
      collect(round, index, outcomes, pending);
    }
  };
  if (probed.empty()) return outcomes;
  send_to_silent();
  wait_until(after(Clock::now(), timeout / 2));
  if (pending > 0) send_to_silent();
  wait_until(after(Clock::now(), timeout / 2));
  return outcomes;
}

}  // namespace tofa::service
