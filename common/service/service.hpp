// The running service: state + network listener + heartbeat thread.
#pragma once

#include <sys/types.h>

#include <memory>
#include <mutex>
#include <string>

#include "net/server.hpp"
#include "service/heartbeat_loop.hpp"
#include "service/service_state.hpp"

namespace tofa::service {

struct ServiceOptions {
  std::string conf_path;
  std::string state_dir;     ///< "" = nothing persisted
  uid_t admin_uid = 0;       ///< SlurmUser
  std::string munge_socket;  ///< "" = default
  Logger log;
  int nodes_save_rounds = 10;  ///< heartbeat state is written every this many rounds
};

class Service {
 public:
  /// Reads the conf, restores the state, listens and starts heartbeating.
  /// Throws Error / ParseError.
  explicit Service(ServiceOptions options);
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  /// Stops the listener and the heartbeat thread, then saves everything.
  /// Idempotent.
  void stop();

  ServiceState& state() { return *state_; }
  int port() const { return server_->port(); }
  const HeartbeatLoop& heartbeats() const { return *heartbeats_; }

 private:
  ServiceOptions options_;
  std::unique_ptr<ServiceState> state_;
  std::unique_ptr<net::Server> server_;
  std::unique_ptr<HeartbeatLoop> heartbeats_;
  std::mutex stop_mutex_;
  bool stopped_ = false;
};

}  // namespace tofa::service
