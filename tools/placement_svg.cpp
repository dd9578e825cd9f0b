#include "placement_svg.hpp"

#include <algorithm>

#include "svg_planes.hpp"

namespace tofa {
namespace {

constexpr int kCell = 22;

std::string fill_for(int tasks, int max_tasks) {
  if (tasks == 0) return "#f0f0f0";
  // Light to dark blue with the number of tasks.
  double share = max_tasks > 1 ? static_cast<double>(tasks - 1) / (max_tasks - 1) : 1.0;
  int light = static_cast<int>(200 - 150 * share);
  return "rgb(" + std::to_string(light / 2) + "," + std::to_string(light) + ",255)";
}

}  // namespace

void write_placement_svg(std::ostream& out, const Topology& topology,
                         const std::vector<int>& placement, const std::vector<double>& outage,
                         const std::string& title) {
  const PlaneLayout layout(topology, kCell);
  std::vector<int> tasks_on(topology.node_count(), 0);
  for (int node : placement) ++tasks_on.at(node);
  int max_tasks = *std::max_element(tasks_on.begin(), tasks_on.end());

  out << layout.header(title, topology.describe() +
                                  "; number = tasks on the node; red border = outage probability > 0")
      << layout.panel_titles();
  for (int node = 0; node < topology.node_count(); ++node) {
    bool faulty = !outage.empty() && outage[node] > 0;
    int x = layout.x(node);
    int y = layout.y(node);
    out << "<rect x='" << x << "' y='" << y << "' width='" << kCell - 2 << "' height='"
        << kCell - 2 << "' fill='" << fill_for(tasks_on[node], max_tasks) << "' stroke='"
        << (faulty ? "red' stroke-width='2.5" : "#999") << "'><title>"
        << svg_escape(topology.node_name(node)) << ": " << tasks_on[node] << " task(s)"
        << (faulty ? ", outage > 0" : "") << "</title></rect>\n";
    if (tasks_on[node] > 0)
      out << "<text x='" << x + kCell / 2 - 1 << "' y='" << y + kCell / 2 + 3
          << "' text-anchor='middle' fill='white'>" << tasks_on[node] << "</text>\n";
  }
  out << "</svg>\n";
}

}  // namespace tofa
