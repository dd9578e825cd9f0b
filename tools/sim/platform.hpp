// SimGrid platform files (XML, SimGrid 3.32 DTD 4.1) for the library's tori
// and meshes, with routes equal to the library's R(u,v).
#pragma once

#include <ostream>
#include <string>

#include "topology/topology.hpp"

namespace tofa::sim {

/// Who computes the routes in SimGrid.
enum class Routing {
  /// A TORUS cluster: SimGrid's TorusZone routes dimension by dimension with
  /// the tie rule the library copies. Full tori only: 3.32 has no mesh zone.
  Zone,
  /// A Full zone listing every route R(u,v) with one link per direction: any
  /// torus, mesh or mix; the file grows as nodes^2 x hops (8x8x8: 66 MB, loaded in ~3 s).
  Explicit,
  /// A Full zone in which every two nodes have a link of their own (one per
  /// direction when split-duplex): one hop for every pair, whatever the
  /// topology. No placement on any topology routes a message over fewer or
  /// less shared links, so a run on it is a floor for every placement.
  Direct,
};

/// How a link between two nodes carries its two directions.
enum class LinkSharing {
  /// One link both ways (SimGrid's default for a <link>; the seed's platform
  /// lists a route per node pair over such links).
  Shared,
  /// One link per direction (a full-duplex torus cable).
  SplitDuplex,
};

/// "shared" or "split-duplex"; throws Error otherwise.
LinkSharing parse_link_sharing(const std::string& text);
std::string link_sharing_name(LinkSharing sharing);

/// The seed's platform (section 5): 6 Gflop/s hosts, 10 Gbit/s links, 1 us.
struct PlatformOptions {
  double speed = 6e9;                ///< flop/s per core
  double bandwidth = 10e9 / 8;       ///< bytes/s per link (and direction, split-duplex)
  double latency = 1e-6;             ///< s per link
  double loopback_bandwidth = 10e9;  ///< bytes/s between ranks on one node
  double loopback_latency = 0;       ///< s
  Routing routing = Routing::Zone;
  LinkSharing sharing = LinkSharing::Shared;
};

enum class Quantity { Speed, Bandwidth, Latency };

/// A SimGrid quantity with its unit, in base units (flop/s, bytes/s, s):
/// speed "6Gf" (f kf Mf Gf Tf Pf), bandwidth "10Gbps" (bps kbps Mbps Gbps
/// Tbps, Bps kBps MBps GBps TBps), latency "1us" (s ms us ns). A bare number
/// is in base units. Throws Error "bad <what> '<text>': ..." otherwise.
double parse_quantity(const std::string& text, Quantity kind);

/// "zone", "explicit" or "direct"; throws Error otherwise.
Routing parse_routing(const std::string& text);
std::string routing_name(Routing routing);
/// Zone for a full torus, Explicit otherwise.
Routing default_routing(const Topology& topology);

/// SimGrid host name of a node: "n<id>", whatever the topology names it.
std::string host_name(int node);

/// Name of the SimGrid link that carries `link` in a split-duplex platform
/// written with `routing` (TorusZone names each node's + link per dimension;
/// _UP is used in the + direction, the neighbour's _DOWN in the - direction;
/// a direct platform names the link between two nodes d<from>_<to>).
std::string link_name(const Link& link, Routing routing);

/// Writes the platform. Throws Error for Routing::Zone on a topology that is
/// not a full torus, or for options that are not positive (latencies: >= 0).
void write_platform(std::ostream& out, const Topology& topology, const PlatformOptions& options);

}  // namespace tofa::sim
