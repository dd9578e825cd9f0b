#include "harness/cluster_files.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>

#include "base/error.hpp"

namespace tofa::harness {
namespace {

int digits_for(int node_count) {
  int digits = 5;
  for (int n = 100000; n <= node_count - 1; n *= 10) ++digits;
  return digits;
}

std::string dims_text(const Topology& topology) {
  std::string text;
  for (int size : topology.dims()) text += (text.empty() ? "" : "x") + std::to_string(size);
  return text;
}

std::string wrap_text(const Topology& topology) {
  std::string text;
  for (bool wraps : topology.wrap()) text += std::string(text.empty() ? "" : ",") + (wraps ? "yes" : "no");
  return text;
}

/// "h[00000-00255]" style ranges of the nodes [first, last].
std::string name_range(int first, int last, int node_count) {
  if (first == last) return node_name(first, node_count);
  const std::string a = node_name(first, node_count), b = node_name(last, node_count);
  return "h[" + a.substr(1) + "-" + b.substr(1) + "]";
}

}  // namespace

int ClusterLayout::group_of(int node) const {
  if (node < spank_nodes) return -1;
  const int per_group = (node_count - spank_nodes + responder_groups - 1) / responder_groups;
  return (node - spank_nodes) / std::max(1, per_group);
}

std::pair<int, int> ClusterLayout::group_range(int group) const {
  const int per_group = (node_count - spank_nodes + responder_groups - 1) / responder_groups;
  const int first = spank_nodes + group * per_group;
  return {first, std::min(node_count, first + per_group)};
}

int ClusterLayout::slurmd_port(int node) const {
  const int group = group_of(node);
  return group < 0 ? base_port + node : base_port + spank_nodes + group;
}

std::string node_name(int node, int node_count) {
  char text[32];
  std::snprintf(text, sizeof text, "h%0*d", digits_for(node_count), node);
  return text;
}

/// 127.1.x.y for the first 65,536 nodes, then 127.2.x.y, ...: every octet
/// below 256 (a 158,976-node torus had 127.1.621.y, which no connect reaches).
static std::string address_prefix(int node) {
  return "127." + std::to_string(1 + node / 65536) + "." + std::to_string(node / 256 % 256) + ".";
}

std::string node_address(int node) { return address_prefix(node) + std::to_string(node % 256); }

int node_index(const std::string& name) {
  if (name.size() < 2 || name[0] != 'h' || name.size() > 10) return -1;
  int value = 0;
  for (std::size_t i = 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    value = value * 10 + (name[i] - '0');
  }
  return value;
}

void write_cluster_files(const std::string& dir, const Topology& topology,
                         const ClusterLayout& layout, const ServiceConf& service,
                         const std::string& munge_socket) {
  const int n = topology.node_count();
  std::ofstream tofa(dir + "/tofa.conf");
  tofa << "# tofa-harness: a synthetic " << dims_text(topology) << " cluster\n"
       << "Dims=" << dims_text(topology) << " Wrap=" << wrap_text(topology)
       << " CoresPerNode=" << topology.cores_per_node() << "\n"
       << "NodeName=" << name_range(0, n - 1, n) << "\n"
       << "ServiceHost=127.0.0.1 ServicePort=" << service.service_port << "\n"
       << "HeartbeatInterval=" << service.heartbeat_interval
       << " HeartbeatTimeout=" << service.heartbeat_timeout
       << " HeartbeatPortOffset=" << layout.port_offset
       << " HeartbeatSessions=" << (service.sessions ? "yes" : "no") << "\n"
       << "OutageModel=" << service.outage_model << "\n"
       << "DefaultStrategy=" << service.default_strategy << "\n"
       << "MaxGraphsPerUser=100000 PlacementRetention=100000 MaxGraphTasks=" << std::max(n * topology.cores_per_node(), 16) << "\n"
       << "MaxConnections=4096 MaxConnectionsPerPeer=4096\n"
       << "MapWorker=" << (service.map_worker.empty() ? "none" : service.map_worker) << "\n";
  if (!tofa) throw Error("cannot write " + dir + "/tofa.conf");

  std::ofstream slurm(dir + "/slurm.conf");
  slurm << "# tofa-harness: read by libslurmfull inside tofa-harness, no daemon uses it\n"
        << "ClusterName=harness\nSlurmctldHost=localhost(127.0.0.1)\n"
        << "AuthType=auth/munge\nAuthInfo=socket=" << munge_socket << "\n"
        << "CredType=cred/munge\nSlurmUser=root\nStateSaveLocation=" << dir << "/state\n"
        << "SlurmdSpoolDir=" << dir << "/spool\nReturnToService=2\n";
  // One line per run of nodes sharing a port and a /24 of addresses.
  for (int first = 0; first < n;) {
    int last = first;
    while (last + 1 < n && layout.slurmd_port(last + 1) == layout.slurmd_port(first) &&
           (last + 1) / 256 == first / 256)
      ++last;
    const std::string prefix = address_prefix(first);
    const std::string addresses = first == last ? node_address(first)
                                                : prefix + "[" + std::to_string(first % 256) + "-" +
                                                      std::to_string(last % 256) + "]";
    slurm << "NodeName=" << name_range(first, last, n) << " NodeAddr=" << addresses
          << " Port=" << layout.slurmd_port(first) << " CPUs=" << topology.cores_per_node()
          << " State=UNKNOWN\n";
    first = last + 1;
  }
  slurm << "PartitionName=all Nodes=ALL Default=YES State=UP\n";
  if (!slurm) throw Error("cannot write " + dir + "/slurm.conf");
}

static bool port_free(int port) {
  for (int type : {SOCK_STREAM, SOCK_DGRAM}) {
    const int fd = ::socket(AF_INET, type, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    if (fd >= 0) ::close(fd);
    if (!ok) return false;
  }
  return true;
}

/// A slurmd base port whose responder ports (base + offset + i, i < count) are all free.
int free_base_port(int offset, int count, std::uint64_t seed) {
  std::mt19937_64 pick(seed ^ static_cast<std::uint64_t>(::getpid()));
  for (int attempt = 0; attempt < 200; ++attempt) {
    const int base = 20000 + static_cast<int>(pick() % 20000);
    bool all = true;
    for (int i = 0; i < count && all; ++i) all = port_free(base + offset + i);
    if (all) return base;
  }
  throw tofa::Error("no run of " + std::to_string(count) + " free ports found");
}

int free_port() {
  for (int attempt = 0; attempt < 50; ++attempt) {
    const int tcp = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (tcp < 0) break;
    const bool bound = ::bind(tcp, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                       ::getsockname(tcp, reinterpret_cast<sockaddr*>(&address), &length) == 0;
    const int udp = ::socket(AF_INET, SOCK_DGRAM, 0);
    const bool udp_free =
        bound && udp >= 0 && ::bind(udp, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(tcp);
    if (udp >= 0) ::close(udp);
    if (udp_free) return ntohs(address.sin_port);
  }
  throw Error("no free port on 127.0.0.1");
}

}  // namespace tofa::harness
