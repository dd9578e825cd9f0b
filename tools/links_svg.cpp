#include "links_svg.hpp"

#include <algorithm>
#include <cstdio>

#include "base/error.hpp"
#include "svg_planes.hpp"

namespace tofa {
namespace {

constexpr int kCell = 40;  // the pitch between nodes
constexpr int kNode = 18;  // a node's square

std::string load_colour(double share) {
  // Pale orange to dark red with the load.
  const int green = static_cast<int>(200 - 190 * share);
  const int red = static_cast<int>(255 - 105 * share);
  return "rgb(" + std::to_string(red) + "," + std::to_string(green) + ",0)";
}

std::string outage_fill(double p, double max_p) {
  if (!(p > 0)) return "white";
  const double share = 0.25 + 0.75 * p / max_p;
  const int other = static_cast<int>(255 * (1 - share));
  return "rgb(255," + std::to_string(other) + "," + std::to_string(other) + ")";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

int link_between(const Topology& topology, int from, int to) {
  for (int slot = 0; slot < 2 * topology.dimension_count(); ++slot) {
    const int id = from * 2 * topology.dimension_count() + slot;
    if (topology.link_of(id).to == to) return id;
  }
  return -1;
}

void write_links_svg(std::ostream& out, const Topology& topology, const std::vector<double>& loads,
                     const std::vector<double>& outage, const std::string& title) {
  if (topology.node_count() > kMaxLinksSvgNodes)
    throw Error("the torus has " + std::to_string(topology.node_count()) +
                " nodes; links --svg draws at most " + std::to_string(kMaxLinksSvgNodes));
  if (loads.size() != static_cast<std::size_t>(topology.link_slot_count()) ||
      (!outage.empty() && outage.size() != static_cast<std::size_t>(topology.node_count())))
    throw Error("link loads or outage probabilities do not match the torus");
  const PlaneLayout layout(topology, kCell);
  const double max_load = loads.empty() ? 0 : *std::max_element(loads.begin(), loads.end());
  const double max_p = outage.empty() ? 0 : *std::max_element(outage.begin(), outage.end());
  out << layout.header(title, topology.describe() + "; link colour and width: bytes on it (max " +
                                  number(max_load) + "); node red: outage probability (max " +
                                  number(max_p) + ")")
      << layout.panel_titles();
  const int centre = (kCell - kNode) / 2 + kNode / 2;
  for (int node = 0; node < topology.node_count(); ++node) {
    const double p = outage.empty() ? 0 : outage[node];
    out << "<rect x='" << layout.x(node) + (kCell - kNode) / 2 << "' y='"
        << layout.y(node) + (kCell - kNode) / 2 << "' width='" << kNode << "' height='" << kNode
        << "' fill='" << outage_fill(p, max_p) << "' stroke='" << (p > 0 ? "red" : "#999")
        << "'><title>" << svg_escape(topology.node_name(node)) << ": P(outage) = " << number(p)
        << "</title></rect>\n";
  }
  for (int id = 0; id < topology.link_slot_count(); ++id) {
    if (!(loads[id] > 0)) continue;
    const Link link = topology.link_of(id);
    const double share = max_load > 0 ? loads[id] / max_load : 0;
    const std::string tip = "<title>" + svg_escape(topology.node_name(link.from)) + " -> " +
                            svg_escape(topology.node_name(link.to)) + ": " + number(loads[id]) +
                            " bytes</title>";
    const int x = layout.x(link.from) + centre, y = layout.y(link.from) + centre;
    if (link.dimension < 2) {  // from the node's edge to half way
      const int edge = kNode / 2 * link.direction, reach = kCell / 2 * link.direction;
      const bool across = link.dimension == 0;
      out << "<line x1='" << x + (across ? edge : 0) << "' y1='" << y + (across ? 0 : edge)
          << "' x2='" << x + (across ? reach : 0) << "' y2='" << y + (across ? 0 : reach)
          << "' stroke='" << load_colour(share) << "' stroke-width='" << number(1.5 + 5 * share)
          << "'>" << tip << "</line>\n";
    } else {
      // Several dimensions beyond the plane stack their dots rightwards.
      const int dx = kNode / 2 + 4 + 6 * (link.dimension - 2);
      const int dy = link.direction > 0 ? -kNode / 2 : kNode / 2;
      out << "<circle cx='" << x + dx << "' cy='" << y + dy << "' r='" << number(2 + 2 * share)
          << "' fill='" << load_colour(share) << "'>" << tip << "</circle>\n";
    }
  }
  out << "</svg>\n";
}

}  // namespace tofa
