// SimGrid's routes against the library's R(u,v).
#pragma once

#include <string>
#include <vector>

#include "platform.hpp"
#include "topology/topology.hpp"

namespace tofa::sim {

struct RouteMismatch {
  int from = 0;
  int to = 0;
  std::vector<std::string> simgrid;  ///< link names, in travel order
  std::vector<std::string> library;  ///< link_name() of each link of R(from, to)
  double simgrid_latency = 0;
  double library_latency = 0;
};

struct RouteReport {
  long long pairs = 0;  ///< ordered pairs compared (u != v)
  long long mismatches = 0;
  std::vector<RouteMismatch> examples;  ///< the first mismatches, at most the limit asked
};

/// Loads `platform_path` (written by write_platform for `topology` with
/// `options`) into SimGrid's engine, which must not exist yet: SimGrid allows
/// one per process. Then compares, for every ordered pair of distinct nodes,
/// Host::route_to (links and latency) with R(u,v). Shows progress.
RouteReport compare_routes(const Topology& topology, const PlatformOptions& options,
                           const std::string& platform_path, int max_examples);

}  // namespace tofa::sim
