// The heartbeat thread: every interval, heartbeat every target and report
// who answered. A node whose responder holds a session key gets one UDP
// datagram (session_prober.hpp); the others, and nodes that lost their
// session, get the munge-authenticated TCP heartbeat (a bounded number in
// flight), which also hands them a new key.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "net/munge_codec.hpp"
#include "service/service_state.hpp"
#include "service/session_prober.hpp"

namespace tofa::service {

struct HeartbeatOptions {
  double interval = 10;        ///< seconds from the start of one round to the next
  double timeout = 2;          ///< seconds one heartbeat may take
  std::string munge_socket;    ///< "" = default
  std::vector<uid_t> responder_uids;  ///< an answer must be encoded by one of these
  int max_in_flight = 16;
  bool sessions = true;        ///< HeartbeatSessions: offer keys, probe over UDP
  uid_t session_reader_uid = 0;  ///< who may read a key (slurmd's uid)
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

/// What a TCP heartbeat may carry beyond the node's name.
struct HeartbeatOffer {
  std::uint64_t round = 0;             ///< 0 = none
  std::string key_credential;          ///< a session key sealed for the responder; "" = none
  bool* accepted = nullptr;            ///< set when the responder took the key
};

/// One heartbeat; every outcome but `answered` puts the reason in *why.
HeartbeatOutcome send_heartbeat(const HeartbeatTarget& target, const HeartbeatOptions& options,
                                std::string* why, const HeartbeatOffer& offer = {});

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
  /// Nodes heartbeated over UDP (holding a session key) after the last round.
  std::size_t sessions() const { return sessions_.load(); }

 private:
  void run();
  std::vector<std::pair<std::string, bool>> round(const std::vector<HeartbeatTarget>& targets);
  /// TCP heartbeats to targets[i] for every i in `which`; true = answered.
  std::vector<signed char> tcp_round(const std::vector<HeartbeatTarget>& targets,
                              const std::vector<std::size_t>& which, std::uint64_t number);
  /// Whether a target that missed its datagrams gets a TCP heartbeat this round.
  bool retry_over_tcp(const std::string& node, std::uint64_t number);

  /// Per node, what the session heartbeats learned about it.
  struct SessionState {
    int datagram_misses = 0;         ///< consecutive
    std::uint64_t tcp_retry_round = 0;  ///< no TCP retry before this round
    int tcp_retries = 0;             ///< consecutive TCP retries that failed
    std::uint64_t offer_after = 0;   ///< a responder that declined a key: offer again then
    bool datagrams_work = false;     ///< a datagram of this node's was ever answered
    int tcp_but_no_datagram = 0;     ///< rounds it answered over TCP, its datagrams not
  };

  const HeartbeatOptions options_;
  const Targets targets_;
  const Results results_;
  const Logger log_;
  net::MungeCodec codec_;
  SessionProber prober_;
  std::unordered_map<std::string, SessionState> session_state_;  ///< the loop thread's only
  std::atomic<bool> stopping_{false};
  std::atomic<double> last_round_seconds_{0};
  std::atomic<long> rounds_{0};
  std::atomic<std::size_t> sessions_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

}  // namespace tofa::service
