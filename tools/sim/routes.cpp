// Route comparison through SimGrid's s4u API.
#include "routes.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cmath>

#include "base/error.hpp"
#include "progress.hpp"

namespace tofa::sim {

RouteReport compare_routes(const Topology& topology, const PlatformOptions& options,
                           const std::string& platform_path, int max_examples) {
  // SimGrid reads its own options from argv; only quiet its logging here.
  std::string program = "tofa-sim";
  std::string quiet = "--log=root.thres:warning";
  char* argv[] = {program.data(), quiet.data(), nullptr};
  int argc = 2;
  simgrid::s4u::Engine engine(&argc, argv);
  engine.load_platform(platform_path);

  const int nodes = topology.node_count();
  std::vector<simgrid::s4u::Host*> hosts(nodes);
  for (int node = 0; node < nodes; ++node) {
    hosts[node] = engine.host_by_name_or_null(host_name(node));
    if (hosts[node] == nullptr)
      throw Error("platform '" + platform_path + "' has no host " + host_name(node));
  }

  RouteReport report;
  Progress progress("routes", static_cast<long long>(nodes) * (nodes - 1));
  std::vector<simgrid::s4u::Link*> links;
  for (int from = 0; from < nodes; ++from) {
    for (int to = 0; to < nodes; ++to) {
      if (from == to) continue;
      links.clear();
      double latency = 0;
      hosts[from]->route_to(hosts[to], links, &latency);
      Route expected;
      if (options.routing == Routing::Direct)
        expected.links = {Link{from, to, 0, +1}};
      else
        expected = topology.route(from, to);
      const double expected_latency = options.latency * expected.hops();
      bool same = links.size() == expected.links.size() &&
                  std::abs(latency - expected_latency) <= 1e-9 * expected_latency;
      for (std::size_t k = 0; same && k < links.size(); ++k)
        same = links[k]->get_name() == link_name(expected.links[k], options.routing);
      ++report.pairs;
      if (!same) {
        ++report.mismatches;
        if (static_cast<int>(report.examples.size()) < max_examples) {
          RouteMismatch mismatch{from, to, {}, {}, latency, expected_latency};
          for (const auto* link : links) mismatch.simgrid.push_back(link->get_name());
          for (const Link& link : expected.links)
            mismatch.library.push_back(link_name(link, options.routing));
          report.examples.push_back(std::move(mismatch));
        }
      }
      progress.update(report.pairs);
    }
  }
  return report;
}

}  // namespace tofa::sim
