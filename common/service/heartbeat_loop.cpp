#include "service/heartbeat_loop.hpp"

#include <algorithm>
#include <chrono>

#include "net/client.hpp"
#include "net/frame.hpp"
#include "net/munge_codec.hpp"
#include "service/protocol.hpp"
#include "service/state_files.hpp"

namespace tofa::service {

namespace {

HeartbeatOutcome outcome(HeartbeatOutcome result, std::string* why, const std::string& reason) {
  if (why) *why = reason;
  return result;
}

}  // namespace

HeartbeatOutcome send_heartbeat(const HeartbeatTarget& target, const HeartbeatOptions& options,
                                std::string* why) {
  using Outcome = HeartbeatOutcome;
  net::Reply reply;
  try {
    net::ClientOptions client;
    client.munge_socket = options.munge_socket;
    client.timeout = std::chrono::milliseconds(
        std::max<long long>(1, static_cast<long long>(options.timeout * 1000)));
    client.max_body = 4096;
    reply = net::request(target.host, target.port,
                         format_message("HEARTBEAT", {{"node", target.name}}), client);
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
  if (reply.body != "ALIVE " + target.name)
    return outcome(Outcome::missed, why, "unexpected answer '" + reply.body.substr(0, 200) + "'");
  return Outcome::answered;
}

HeartbeatLoop::HeartbeatLoop(HeartbeatOptions options, Targets targets, Results results,
                             Logger log)
    : options_(std::move(options)),
      targets_(std::move(targets)),
      results_(std::move(results)),
      log_(std::move(log)) {
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

std::vector<std::pair<std::string, bool>> HeartbeatLoop::round(
    const std::vector<HeartbeatTarget>& targets) {
  std::vector<std::pair<std::string, bool>> outcomes(targets.size());
  std::vector<char> counted(targets.size(), 0);
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; !stopping_ && (i = next++) < targets.size();) {
      std::string why;
      const HeartbeatOutcome result = send_heartbeat(targets[i], options_, &why);
      const std::string where = "heartbeat to " + targets[i].name + " (" + targets[i].host + ":" +
                                std::to_string(targets[i].port) + "): ";
      if (result == HeartbeatOutcome::rejected && log_)
        log_(0, "security: " + where + "reply failed authentication (" + why +
                    "); counted neither as an answer nor as a miss");
      else if (result == HeartbeatOutcome::not_sent && log_)
        log_(0, where + "not sent: " + why);
      else if (result == HeartbeatOutcome::missed && log_)
        log_(2, where + why);
      outcomes[i] = {targets[i].name, result == HeartbeatOutcome::answered};
      counted[i] = result == HeartbeatOutcome::answered || result == HeartbeatOutcome::missed;
    }
  };
  const std::size_t workers =
      std::min<std::size_t>(targets.size(), static_cast<std::size_t>(std::max(1, options_.max_in_flight)));
  std::vector<std::thread> pool;
  try {
    for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(worker);
  } catch (const std::exception& e) {  // fewer threads: the rest still run
    if (log_) log_(0, std::string("heartbeat pool: ") + e.what());
  }
  worker();
  for (std::thread& t : pool) t.join();
  // Only answers and misses count; a round cut short by stop() reports only
  // the heartbeats that were sent.
  std::vector<std::pair<std::string, bool>> finished;
  for (std::size_t i = 0; i < targets.size(); ++i)
    if (counted[i]) finished.push_back(std::move(outcomes[i]));
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
