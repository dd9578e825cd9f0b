// The heartbeat thread: every interval, heartbeat every target concurrently
// (a bounded number in flight) and report who answered.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "service/service_state.hpp"

namespace tofa::service {

struct HeartbeatOptions {
  double interval = 10;        ///< seconds from the start of one round to the next
  double timeout = 2;          ///< seconds one heartbeat may take
  std::string munge_socket;    ///< "" = default
  std::vector<uid_t> responder_uids;  ///< an answer must be encoded by one of these
  int max_in_flight = 16;
};

enum class HeartbeatOutcome {
  answered,  ///< "ALIVE <name>" sealed by an accepted uid, within the timeout
  /// The node failed to answer: connect refused or timed out, no reply within
  /// the timeout, or a verified reply other than "ALIVE <name>".
  missed,
  /// A reply that fails authentication or binding (forged, replayed, another
  /// munge key, an unaccepted uid): a security event, neither answer nor miss.
  rejected,
  /// A local failure (our munged unreachable): says nothing about the node.
  not_sent,
};

/// One heartbeat; every outcome but `answered` puts the reason in *why.
HeartbeatOutcome send_heartbeat(const HeartbeatTarget& target, const HeartbeatOptions& options,
                                std::string* why);

class HeartbeatLoop {
 public:
  using Targets = std::function<std::vector<HeartbeatTarget>()>;
  /// Receives one round's outcomes (node, answered), the time and the round
  /// number; heartbeats rejected or not sent are logged and left out.
  using Results =
      std::function<void(const std::vector<std::pair<std::string, bool>>&, double now, long round)>;

  HeartbeatLoop(HeartbeatOptions options, Targets targets, Results results, Logger log);
  ~HeartbeatLoop();
  HeartbeatLoop(const HeartbeatLoop&) = delete;
  HeartbeatLoop& operator=(const HeartbeatLoop&) = delete;

  /// Returns after the current heartbeats (at most one timeout) and joins.
  /// Idempotent.
  void stop();

  /// Seconds the last complete round took (0 before the first).
  double last_round_seconds() const { return last_round_seconds_.load(); }
  long rounds() const { return rounds_.load(); }

 private:
  void run();
  std::vector<std::pair<std::string, bool>> round(const std::vector<HeartbeatTarget>& targets);

  const HeartbeatOptions options_;
  const Targets targets_;
  const Results results_;
  const Logger log_;
  std::atomic<bool> stopping_{false};
  std::atomic<double> last_round_seconds_{0};
  std::atomic<long> rounds_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace tofa::service
