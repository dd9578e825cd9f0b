#include "service/heartbeat_loop.hpp"

#include <algorithm>
#include <chrono>

#include "net/client.hpp"
#include "net/hmac.hpp"
#include "net/frame.hpp"
#include "net/munge_codec.hpp"
#include "service/heartbeat_datagram.hpp"
#include "service/protocol.hpp"
#include "service/responder_sessions.hpp"
#include "service/state_files.hpp"

namespace tofa::service {

namespace {

constexpr int kMissesBeforeTcp = 3;             ///< silent rounds before a TCP heartbeat
constexpr std::uint64_t kMaxTcpRetryRounds = 100;
constexpr std::uint64_t kDeclinedOfferRounds = 100;
constexpr std::uint64_t kUdpBlockedRounds = 1000;  ///< before a node whose UDP is blocked gets a key again

HeartbeatOutcome outcome(HeartbeatOutcome result, std::string* why, const std::string& reason) {
  if (why) *why = reason;
  return result;
}

}  // namespace

HeartbeatOutcome send_heartbeat(const HeartbeatTarget& target, const HeartbeatOptions& options,
                                std::string* why, const HeartbeatOffer& offer) {
  using Outcome = HeartbeatOutcome;
  net::Reply reply;
  std::vector<std::pair<std::string, std::string>> fields = {{"node", target.name}};
  if (offer.round > 0) fields.emplace_back("round", std::to_string(offer.round));
  if (!offer.key_credential.empty()) fields.emplace_back("session", offer.key_credential);
  try {
    net::ClientOptions client;
    client.munge_socket = options.munge_socket;
    client.timeout = std::chrono::milliseconds(
        std::max<long long>(1, static_cast<long long>(options.timeout * 1000)));
    client.max_body = 4096;
    reply = net::request(target.host, target.port, format_message("HEARTBEAT", fields), client);
  } catch (const net::AuthenticationError& e) {
    return outcome(Outcome::rejected, why, e.what());
  } catch (const net::MungeError& e) {
    // A refused credential here is the reply's: the request is sealed locally.
    return outcome(e.credential_refused() ? Outcome::rejected : Outcome::not_sent, why, e.what());
  } catch (const std::exception& e) {
    return outcome(Outcome::missed, why, e.what());
  }
  if (std::find(options.responder_uids.begin(), options.responder_uids.end(), reply.uid) ==
      options.responder_uids.end())
    return outcome(Outcome::rejected, why, "answer encoded by uid " + std::to_string(reply.uid));
  if (reply.body.compare(0, 6, "ERROR ") == 0)
    return outcome(Outcome::missed, why, reply.body.substr(6, 300));
  const std::string alive = "ALIVE " + target.name;
  const bool took_key = reply.body == alive + " session=ok";
  if (reply.body != alive && !took_key)
    return outcome(Outcome::missed, why, "unexpected answer '" + reply.body.substr(0, 200) + "'");
  if (offer.accepted) *offer.accepted = took_key && !offer.key_credential.empty();
  return Outcome::answered;
}

HeartbeatLoop::HeartbeatLoop(HeartbeatOptions options, Targets targets, Results results,
                             Logger log)
    : options_(std::move(options)),
      targets_(std::move(targets)),
      results_(std::move(results)),
      log_(std::move(log)),
      codec_(options_.munge_socket) {
  thread_ = std::thread([this] { run(); });
}

HeartbeatLoop::~HeartbeatLoop() { stop(); }

void HeartbeatLoop::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

std::vector<signed char> HeartbeatLoop::tcp_round(const std::vector<HeartbeatTarget>& targets,
                                           const std::vector<std::size_t>& which,
                                           std::uint64_t number) {
  std::vector<char> answered(targets.size(), 0), counted(targets.size(), 0);
  std::vector<std::string> keys(targets.size());
  std::vector<char> key_taken(targets.size(), 0);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k; !stopping_ && (k = next++) < which.size();) {
      const std::size_t i = which[k];
      const HeartbeatTarget& target = targets[i];
      HeartbeatOffer offer;
      offer.round = number;
      bool took_key = false;
      std::string why;
      if (options_.sessions && session_state_.at(target.name).offer_after <= number) {
        try {
          keys[i] = net::random_bytes(kSessionKeyBytes);
          offer.key_credential =
              codec_.encode_for(session_key_payload(target.name, keys[i]), options_.session_reader_uid);
          offer.accepted = &took_key;
        } catch (const std::exception& e) {  // no key this time; the heartbeat still goes
          if (log_) log_(0, "heartbeat to " + target.name + ": no session key: " + e.what());
        }
      }
      const HeartbeatOutcome result = send_heartbeat(target, options_, &why, offer);
      const std::string where = "heartbeat to " + target.name + " (" + target.host + ":" +
                                std::to_string(target.port) + "): ";
      if (result == HeartbeatOutcome::rejected && log_)
        log_(0, "security: " + where + "reply failed authentication (" + why +
                    "); counted neither as an answer nor as a miss");
      else if (result == HeartbeatOutcome::not_sent && log_)
        log_(0, where + "not sent: " + why);
      else if (result == HeartbeatOutcome::missed && log_)
        log_(2, where + why);
      answered[i] = result == HeartbeatOutcome::answered;
      counted[i] = result == HeartbeatOutcome::answered || result == HeartbeatOutcome::missed;
      key_taken[i] = took_key;
    }
  };
  const std::size_t workers =
      std::min<std::size_t>(which.size(), static_cast<std::size_t>(std::max(1, options_.max_in_flight)));
  std::vector<std::thread> pool;
  try {
    for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(worker);
  } catch (const std::exception& e) {  // fewer threads: the rest still run
    if (log_) log_(0, std::string("heartbeat pool: ") + e.what());
  }
  if (!which.empty()) worker();
  for (std::thread& t : pool) t.join();
  // Sessions change only here, on the loop's thread.
  for (std::size_t i : which) {
    if (!options_.sessions || !counted[i]) continue;
    SessionState& state = session_state_.at(targets[i].name);
    if (!answered[i]) continue;
    if (key_taken[i]) {
      try {
        prober_.start_session(targets[i], std::move(keys[i]));
      } catch (const std::exception& e) {
        if (log_) log_(2, "heartbeat to " + targets[i].name + ": " + e.what());
      }
    } else if (!keys[i].empty()) {
      state.offer_after = number + kDeclinedOfferRounds;  // an older responder, or no UDP port
      prober_.end_session(targets[i].name);
    }
  }
  // -1 marks heartbeats not counted (rejected, not sent, cut short by stop()).
  std::vector<signed char> out(targets.size(), -1);
  for (std::size_t i : which)
    if (counted[i]) out[i] = answered[i];
  return out;
}

bool HeartbeatLoop::retry_over_tcp(const std::string& node, std::uint64_t number) {
  SessionState& state = session_state_.at(node);
  if (++state.datagram_misses < kMissesBeforeTcp || number < state.tcp_retry_round) return false;
  return true;
}

std::vector<std::pair<std::string, bool>> HeartbeatLoop::round(
    const std::vector<HeartbeatTarget>& targets) {
  const std::uint64_t number = static_cast<std::uint64_t>(rounds_.load()) + 1;
  std::vector<ProbeOutcome> probed(targets.size(), ProbeOutcome::needs_tcp);
  if (options_.sessions) {
    for (const HeartbeatTarget& target : targets) session_state_[target.name];
    try {
      probed = prober_.probe(targets, number, options_.timeout, stopping_);
    } catch (const std::exception& e) {  // e.g. no UDP socket: this round over TCP
      if (log_) log_(0, std::string("session heartbeats: ") + e.what());
      std::fill(probed.begin(), probed.end(), ProbeOutcome::needs_tcp);
    }
  }
  std::vector<std::size_t> over_tcp;
  std::vector<signed char> answered(targets.size(), -1);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (probed[i] == ProbeOutcome::answered) {
      answered[i] = 1;
      SessionState& state = session_state_.at(targets[i].name);
      state.datagram_misses = 0;
      state.datagrams_work = true;
    } else if (probed[i] == ProbeOutcome::needs_tcp ||
               !session_state_.at(targets[i].name).datagrams_work ||
               retry_over_tcp(targets[i].name, number)) {
      // Until one of its datagrams is answered, a silent node is asked over
      // TCP at once: UDP may be blocked on the way to it.
      over_tcp.push_back(i);
    } else {
      answered[i] = 0;
    }
  }
  const std::vector<signed char> tcp = tcp_round(targets, over_tcp, number);
  for (std::size_t i : over_tcp) {
    answered[i] = tcp[i];
    if (!options_.sessions || probed[i] != ProbeOutcome::missed || tcp[i] < 0) continue;
    // A session that went silent. Answering over TCP twice when no datagram
    // ever got an answer: UDP does not get through, the node stays on TCP.
    // Answering after datagrams worked: it was down and is back, with the
    // new key this TCP heartbeat gave it. Silence: it is down; back off
    // before the next TCP try.
    SessionState& state = session_state_.at(targets[i].name);
    state.datagram_misses = 0;
    state.tcp_retries = tcp[i] ? 0 : state.tcp_retries + 1;
    state.tcp_retry_round = number + std::min<std::uint64_t>(
        kMaxTcpRetryRounds, std::uint64_t(kMissesBeforeTcp) << std::min(state.tcp_retries, 6));
    if (tcp[i] && !state.datagrams_work && ++state.tcp_but_no_datagram >= 2) {
      state.offer_after = number + kUdpBlockedRounds;
      prober_.end_session(targets[i].name);
    }
  }
  if (options_.sessions && session_state_.size() > 2 * targets.size() + 1024) {
    std::unordered_map<std::string, SessionState> kept;  // nodes removed from the table
    for (const HeartbeatTarget& target : targets) kept[target.name] = session_state_[target.name];
    session_state_.swap(kept);
  }
  sessions_ = prober_.session_count();
  // Only answers and misses count; a round cut short by stop() reports only
  // the heartbeats that were sent.
  std::vector<std::pair<std::string, bool>> finished;
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (answered[i] >= 0) finished.emplace_back(targets[i].name, answered[i] == 1);
  return finished;
}

void HeartbeatLoop::run() {
  using clock = std::chrono::steady_clock;
  const auto interval = std::chrono::duration_cast<clock::duration>(
      std::chrono::duration<double>(options_.interval));
  auto next_round = clock::now();
  while (!stopping_) {
    try {
      const auto started = clock::now();
      const std::vector<std::pair<std::string, bool>> outcomes = round(targets_());
      last_round_seconds_ = std::chrono::duration<double>(clock::now() - started).count();
      if (!stopping_) results_(outcomes, now_seconds(), ++rounds_);
    } catch (const std::exception& e) {
      if (log_) log_(0, std::string("heartbeat round failed: ") + e.what());
    }
    next_round += interval;
    const auto now = clock::now();
    if (next_round < now) next_round = now;  // a slow round does not cause a burst
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait_until(lock, next_round, [this] { return stopping_.load(); });
  }
}

}  // namespace tofa::service
