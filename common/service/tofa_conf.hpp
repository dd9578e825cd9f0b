// tofa.conf: the topology lines (parsed by parse_topology) plus the service
// settings of slurmctld/tofa, its responders and its clients.
#pragma once

#include <chrono>
#include <istream>
#include <string>
#include <vector>

#include "faults/faults.hpp"
#include "map/mapper.hpp"
#include "service/map_worker.hpp"
#include "topology/topology.hpp"

#ifndef TOFA_MAP_WORKER
#define TOFA_MAP_WORKER "/usr/local/libexec/tofa/tofa-map-worker"
#endif

namespace tofa::service {

/// The service keys of tofa.conf with their defaults (see tofa_service.h).
struct ServiceSettings {
  std::string service_host;                  ///< "" = the caller supplies a host
  int service_port = 6830;                   ///< 0 = ephemeral (tests)
  std::string bind_address = "0.0.0.0";
  double request_timeout = 30;               ///< seconds, one client exchange
  /// Seconds a client keeps trying while the service cannot be reached (it
  /// restarts with slurmctld) or is busy with the same user's placement.
  double service_wait = 120;
  /// Seconds srun waits for the job's strategy to order its tasks on the
  /// nodes the scheduler chose (deferred out of slurmctld's scheduling
  /// pass); then it runs the node choice's own order.
  double placement_wait = 30;
  double heartbeat_interval = 10;            ///< seconds between rounds
  double heartbeat_timeout = 2;              ///< seconds per heartbeat
  int heartbeat_port_offset = 1000;          ///< responder port = slurmd port + offset
  bool heartbeat_sessions = true;            ///< UDP heartbeats under keys handed over TCP
  OutageModel outage_model;                  ///< window:100
  std::string default_strategy = kDefaultStrategy;
  double placement_budget_ms = 20;           ///< auto's budget at 128 tasks
  FaultCost fault_cost;                      ///< LinkCost=1, FaultPenalty=100
  /// Extra hops a link at the running jobs' mean link load costs a new job
  /// (0: placement blind to the other jobs; docs/interference.md).
  double interference_weight = 1;
  long long max_graph_bytes = 64LL << 20;
  int max_graph_tasks = 65536;
  int max_graphs_per_user = 64;
  int placement_retention = 1000;
  int max_connections = 512;                 ///< open connections to the service or a responder
  int max_connections_per_peer = 256;        ///< of them from one address
  double header_timeout = 2;                 ///< seconds from connect to the whole credential
  /// Mapping runs in this worker program; an empty program maps in-process.
  MapWorkerLimits map_worker{TOFA_MAP_WORKER, 4096, 10};
  /// When mapping fails (worker crash, limits): false = the job gets
  /// Slurm's layout, true = it waits.
  bool map_failure_waits = false;
  /// TOFA jobs avoid nodes whose outage probability is above this...
  double outage_threshold = 0.5;
  /// ...and wait when they fit only with such nodes (false: they may use them).
  bool only_failing_fit_waits = true;
};

/// Seconds from tofa.conf as a timeout (at least 1 ms).
std::chrono::milliseconds seconds_to_ms(double seconds);

/// The names of the service keys in their canonical spelling, in file order.
const std::vector<std::string>& service_keys();

/// The current value of one key as text ("ServicePort" -> "6830"); the key is
/// matched case-insensitively. Throws Error naming the known keys.
std::string setting_text(const ServiceSettings& settings, const std::string& key);

/// A whole tofa.conf.
struct TofaConf {
  ServiceSettings settings;
  Topology topology;
};

/// Parses the service lines and checks every key of the topology lines
/// exists, without building the topology (clients need only the settings).
/// A line belongs to the service when its first key is a service key; the
/// two kinds of key may not share a line. Throws ParseError "FILE:LINE:COL: ...".
ServiceSettings parse_service_settings(std::istream& in, const std::string& source_name);
ServiceSettings read_service_settings(const std::string& path);

/// Parses the settings and the topology; the topology parser sees the
/// service lines blanked out, so its line numbers are those of the file.
TofaConf parse_tofa_conf(std::istream& in, const std::string& source_name);
TofaConf read_tofa_conf(const std::string& path);

}  // namespace tofa::service
