// SimGrid platform writer: TORUS cluster or Full zone with listed routes.
#include "platform.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "base/error.hpp"

namespace tofa::sim {
namespace {

struct Unit {
  const char* suffix;
  double factor;
};

const std::vector<Unit>& units_of(Quantity kind) {
  static const std::vector<Unit> speed = {{"f", 1},    {"kf", 1e3},  {"Mf", 1e6},
                                          {"Gf", 1e9}, {"Tf", 1e12}, {"Pf", 1e15}};
  static const std::vector<Unit> bandwidth = {
      {"bps", 1 / 8.0}, {"kbps", 1e3 / 8}, {"Mbps", 1e6 / 8}, {"Gbps", 1e9 / 8}, {"Tbps", 1e12 / 8},
      {"Bps", 1},       {"kBps", 1e3},     {"MBps", 1e6},     {"GBps", 1e9},     {"TBps", 1e12}};
  static const std::vector<Unit> latency = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
  switch (kind) {
    case Quantity::Speed:
      return speed;
    case Quantity::Bandwidth:
      return bandwidth;
    case Quantity::Latency:
      break;
  }
  return latency;
}

const char* name_of(Quantity kind) {
  switch (kind) {
    case Quantity::Speed:
      return "speed";
    case Quantity::Bandwidth:
      return "bandwidth";
    case Quantity::Latency:
      break;
  }
  return "latency";
}

/// Base-unit value in the fewest digits that SimGrid reads back as the same double.
std::string exact(double value, const char* unit) {
  char text[64];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text + std::string(unit);
}

void check_options(const PlatformOptions& o) {
  const std::pair<const char*, double> positive[] = {
      {"speed", o.speed}, {"bandwidth", o.bandwidth}, {"loopback bandwidth", o.loopback_bandwidth}};
  for (const auto& [what, value] : positive)
    if (!(std::isfinite(value) && value > 0))
      throw Error(std::string("platform ") + what + " must be positive, got " +
                  std::to_string(value));
  const std::pair<const char*, double> non_negative[] = {{"latency", o.latency},
                                                         {"loopback latency", o.loopback_latency}};
  for (const auto& [what, value] : non_negative)
    if (!(std::isfinite(value) && value >= 0))
      throw Error(std::string("platform ") + what + " must be >= 0, got " + std::to_string(value));
}

void write_header(std::ostream& out, const Topology& topology, const PlatformOptions& o) {
  out << "<?xml version='1.0'?>\n"
         "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
      << "<!-- tofa-sim: " << topology.describe() << "; " << o.speed << " flop/s, " << o.bandwidth
      << " B/s and " << o.latency << " s per link and direction -->\n"
      << "<platform version=\"4.1\">\n";
}

void write_torus_cluster(std::ostream& out, const Topology& topology, const PlatformOptions& o) {
  std::string dims;
  for (int size : topology.dims()) dims += (dims.empty() ? "" : ",") + std::to_string(size);
  out << "  <cluster id=\"torus\" topology=\"TORUS\" topo_parameters=\"" << dims << "\"\n"
      << "           prefix=\"n\" suffix=\"\" radical=\"0-" << topology.node_count() - 1 << "\"\n"
      << "           speed=\"" << exact(o.speed, "f") << "\" core=\"" << topology.cores_per_node()
      << "\"\n"
      << "           bw=\"" << exact(o.bandwidth, "Bps") << "\" lat=\"" << exact(o.latency, "s")
      << "\" sharing_policy=\"" << (o.sharing == LinkSharing::Shared ? "SHARED" : "SPLITDUPLEX")
      << "\"\n"
      << "           loopback_bw=\"" << exact(o.loopback_bandwidth, "Bps") << "\" loopback_lat=\""
      << exact(o.loopback_latency, "s") << "\"/>\n";
}

void write_explicit_zone(std::ostream& out, const Topology& topology, const PlatformOptions& o) {
  const int nodes = topology.node_count();
  const std::string bandwidth = exact(o.bandwidth, "Bps");
  const std::string latency = exact(o.latency, "s");
  const bool shared = o.sharing == LinkSharing::Shared;
  auto link_of = [shared](Link link) {
    if (shared && link.from > link.to) std::swap(link.from, link.to);
    return link_name(link, Routing::Explicit);
  };
  out << "  <zone id=\"network\" routing=\"Full\">\n";
  for (int node = 0; node < nodes; ++node)
    out << "    <host id=\"" << host_name(node) << "\" speed=\"" << exact(o.speed, "f")
        << "\" core=\"" << topology.cores_per_node() << "\"/>\n";
  for (int node = 0; node < nodes; ++node) {
    out << "    <link id=\"" << host_name(node) << "_loopback\" bandwidth=\""
        << exact(o.loopback_bandwidth, "Bps") << "\" latency=\"" << exact(o.loopback_latency, "s")
        << "\" sharing_policy=\"FATPIPE\"/>\n";
    for (int next : topology.neighbours(node))
      if (!shared || node < next)
        out << "    <link id=\"" << link_of(Link{node, next, 0, +1}) << "\" bandwidth=\"" << bandwidth
            << "\" latency=\"" << latency << "\"/>\n";
  }
  for (int from = 0; from < nodes; ++from) {
    out << "    <route src=\"" << host_name(from) << "\" dst=\"" << host_name(from)
        << "\"><link_ctn id=\"" << host_name(from) << "_loopback\"/></route>\n";
    for (int to = 0; to < nodes; ++to) {
      if (to == from) continue;
      out << "    <route src=\"" << host_name(from) << "\" dst=\"" << host_name(to)
          << "\" symmetrical=\"NO\">";
      for (const Link& link : topology.route(from, to).links)
        out << "<link_ctn id=\"" << link_of(link) << "\"/>";
      out << "</route>\n";
    }
  }
  out << "  </zone>\n";
}

void write_direct_zone(std::ostream& out, const Topology& topology, const PlatformOptions& o) {
  const int nodes = topology.node_count();
  const bool shared = o.sharing == LinkSharing::Shared;
  auto link_of = [shared](int from, int to) {
    if (shared && from > to) std::swap(from, to);
    return link_name(Link{from, to, 0, +1}, Routing::Direct);
  };
  out << "  <zone id=\"network\" routing=\"Full\">\n";
  for (int node = 0; node < nodes; ++node)
    out << "    <host id=\"" << host_name(node) << "\" speed=\"" << exact(o.speed, "f")
        << "\" core=\"" << topology.cores_per_node() << "\"/>\n";
  const std::string bandwidth = exact(o.bandwidth, "Bps");
  const std::string latency = exact(o.latency, "s");
  for (int from = 0; from < nodes; ++from) {
    out << "    <link id=\"" << host_name(from) << "_loopback\" bandwidth=\""
        << exact(o.loopback_bandwidth, "Bps") << "\" latency=\"" << exact(o.loopback_latency, "s")
        << "\" sharing_policy=\"FATPIPE\"/>\n";
    for (int to = shared ? from + 1 : 0; to < nodes; ++to)
      if (to != from)
        out << "    <link id=\"" << link_of(from, to) << "\" bandwidth=\"" << bandwidth
            << "\" latency=\"" << latency << "\"/>\n";
  }
  for (int from = 0; from < nodes; ++from)
    for (int to = 0; to < nodes; ++to)
      out << "    <route src=\"" << host_name(from) << "\" dst=\"" << host_name(to)
          << "\" symmetrical=\"NO\"><link_ctn id=\""
          << (to == from ? host_name(from) + "_loopback" : link_of(from, to)) << "\"/></route>\n";
  out << "  </zone>\n";
}

}  // namespace

double parse_quantity(const std::string& text, Quantity kind) {
  const std::string bad = std::string("bad ") + name_of(kind) + " '" + text + "': ";
  const char* start = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double number = std::strtod(start, &end);
  // strtod also takes "inf", "nan" and hexadecimal: only decimals here.
  const bool decimal = end != start && (start[0] == '.' || (start[0] >= '0' && start[0] <= '9'));
  if (!decimal || errno != 0 || !std::isfinite(number) || number < 0)
    throw Error(bad + "expected a non-negative number followed by a unit");
  const std::string suffix(end);
  if (suffix.empty()) return number;
  std::string known;
  for (const Unit& unit : units_of(kind)) {
    if (suffix == unit.suffix) return number * unit.factor;
    known += std::string(known.empty() ? "" : " ") + unit.suffix;
  }
  throw Error(bad + "unknown unit '" + suffix + "', expected one of " + known);
}

Routing parse_routing(const std::string& text) {
  if (text == "zone") return Routing::Zone;
  if (text == "explicit") return Routing::Explicit;
  if (text == "direct") return Routing::Direct;
  throw Error("bad routing '" + text + "': expected 'zone', 'explicit' or 'direct'");
}

std::string routing_name(Routing routing) {
  switch (routing) {
    case Routing::Zone:
      return "zone";
    case Routing::Explicit:
      return "explicit";
    case Routing::Direct:
      break;
  }
  return "direct";
}

LinkSharing parse_link_sharing(const std::string& text) {
  if (text == "shared") return LinkSharing::Shared;
  if (text == "split-duplex") return LinkSharing::SplitDuplex;
  throw Error("bad link sharing '" + text + "': expected 'shared' or 'split-duplex'");
}

std::string link_sharing_name(LinkSharing sharing) {
  return sharing == LinkSharing::Shared ? "shared" : "split-duplex";
}

Routing default_routing(const Topology& topology) {
  return topology.is_full_torus() ? Routing::Zone : Routing::Explicit;
}

std::string host_name(int node) { return "n" + std::to_string(node); }

std::string link_name(const Link& link, Routing routing) {
  if (routing == Routing::Direct)
    return "d" + std::to_string(link.from) + "_" + std::to_string(link.to);
  if (routing == Routing::Explicit)
    return "l" + std::to_string(link.from) + "_" + std::to_string(link.to);
  if (link.direction > 0)
    return "torus_link_from_" + std::to_string(link.from) + "_to_" + std::to_string(link.to) +
           "_UP";
  return "torus_link_from_" + std::to_string(link.to) + "_to_" + std::to_string(link.from) +
         "_DOWN";
}

void write_platform(std::ostream& out, const Topology& topology, const PlatformOptions& options) {
  check_options(options);
  if (options.routing == Routing::Zone && !topology.is_full_torus())
    throw Error("SimGrid 3.32's TorusZone wraps every dimension, " + topology.describe() +
                " does not: use explicit routing");
  write_header(out, topology, options);
  switch (options.routing) {
    case Routing::Zone:
      write_torus_cluster(out, topology, options);
      break;
    case Routing::Explicit:
      write_explicit_zone(out, topology, options);
      break;
    case Routing::Direct:
      write_direct_zone(out, topology, options);
      break;
  }
  out << "</platform>\n";
  if (!out) throw Error("cannot write the platform file");
}

}  // namespace tofa::sim
