#include "service/service.hpp"

#include "service/map_worker.hpp"
#include "service/protocol.hpp"
#include "service/request_handler.hpp"

namespace tofa::service {

Service::Service(ServiceOptions options) : options_(std::move(options)) {
  TofaConf conf = read_tofa_conf(options_.conf_path);
  const ServiceSettings settings = conf.settings;
  state_ = std::make_unique<ServiceState>(settings, std::move(conf.topology), options_.admin_uid,
                                          options_.state_dir, options_.log);

  net::ServerOptions server;
  server.host = settings.bind_address;
  server.port = settings.service_port;
  server.munge_socket = options_.munge_socket;
  server.max_body = static_cast<std::size_t>(settings.max_graph_bytes) + kMaxHeaderBytes;
  server.workers = 4;
  server.header_timeout = seconds_to_ms(settings.header_timeout);
  server.max_connections = static_cast<std::size_t>(settings.max_connections);
  server.max_connections_per_peer = static_cast<std::size_t>(settings.max_connections_per_peer);
  const Logger log = options_.log;
  server.log_error = [log](const std::string& line) {
    if (log) log(0, "tofa service: " + line);
  };
  ServiceState* state = state_.get();
  server_ = std::make_unique<net::Server>(
      server, [state](const net::Request& r) { return handle_request(*state, r.body, r.uid); });

  HeartbeatOptions heartbeat;
  heartbeat.interval = settings.heartbeat_interval;
  heartbeat.timeout = settings.heartbeat_timeout;
  heartbeat.munge_socket = options_.munge_socket;
  heartbeat.responder_uids = {0, options_.admin_uid};
  heartbeat.sessions = settings.heartbeat_sessions;
  const int save_rounds = std::max(1, options_.nodes_save_rounds);
  heartbeats_ = std::make_unique<HeartbeatLoop>(
      heartbeat, [state] { return state->heartbeat_targets(); },
      [state, save_rounds](const std::vector<std::pair<std::string, bool>>& outcomes, double now,
                           long round) {
        state->record_heartbeats(outcomes, now);
        if (round % save_rounds == 0) state->save_nodes();
      },
      options_.log);
  std::string why;
  if (!settings.map_worker.program.empty() && !start_idle_map_worker(settings.map_worker, &why) &&
      log)
    log(0, "tofa service: " + why);
  if (log)
    log(1, "tofa service listening on " + settings.bind_address + ":" +
               std::to_string(server_->port()) + ", heartbeat every " +
               std::to_string(settings.heartbeat_interval) + " s");
}

Service::~Service() { stop(); }

void Service::stop() {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (stopped_) return;
  stopped_ = true;
  server_->stop();
  heartbeats_->stop();
  state_->save_all();
  stop_idle_map_workers();
  if (options_.log) options_.log(1, "tofa service stopped, state saved");
}

}  // namespace tofa::service
