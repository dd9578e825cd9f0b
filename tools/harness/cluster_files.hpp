// The synthetic cluster's files: tofa.conf and slurm.conf for N nodes named
// h00000..., each with its own loopback address (127.1.x.y, then 127.2.x.y
// beyond 65,536 nodes), grouped so that
// one responder process answers for a group on one port.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofa::harness {

struct ClusterLayout {
  int node_count = 0;
  int spank_nodes = 0;        ///< the first nodes: one tofa_nodestate.so process each
  int responder_groups = 1;   ///< processes answering for the other nodes
  int base_port = 17000;      ///< slurmd ports: spank nodes base+i, group g base+spank+g
  int port_offset = 1000;     ///< HeartbeatPortOffset

  int slurmd_port(int node) const;
  int group_of(int node) const;  ///< -1 for a spank node
  /// The nodes of group g (contiguous ids).
  std::pair<int, int> group_range(int group) const;
};

std::string node_name(int node, int node_count);
std::string node_address(int node);
/// "h00012" -> 12; -1 when `name` is not a harness node name.
int node_index(const std::string& name);

struct ServiceConf {
  int service_port = 0;
  double heartbeat_interval = 1;
  double heartbeat_timeout = 1;
  std::string outage_model = "window:1000";
  std::string default_strategy = "tofa";
  std::string map_worker;     ///< "" = map in process
  bool sessions = true;
};

/// Writes DIR/tofa.conf and DIR/slurm.conf (StateSaveLocation DIR/state,
/// AuthInfo=socket=munge_socket, SlurmUser=root).
void write_cluster_files(const std::string& dir, const Topology& topology,
                         const ClusterLayout& layout, const ServiceConf& service,
                         const std::string& munge_socket);

/// A TCP port nobody listens on now, whose UDP twin is free too.
int free_port();

/// A slurmd base port whose responder ports (base + offset + i, i < count)
/// are free for TCP and UDP.
int free_base_port(int offset, int count, std::uint64_t seed);

}  // namespace tofa::harness
