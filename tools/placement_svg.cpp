#include "placement_svg.hpp"

#include <algorithm>

namespace tofa {
namespace {

constexpr int kCell = 22;
constexpr int kGap = 18;
constexpr int kHeader = 44;

std::string fill_for(int tasks, int max_tasks) {
  if (tasks == 0) return "#f0f0f0";
  // Light to dark blue with the number of tasks.
  double share = max_tasks > 1 ? static_cast<double>(tasks - 1) / (max_tasks - 1) : 1.0;
  int light = static_cast<int>(200 - 150 * share);
  return "rgb(" + std::to_string(light / 2) + "," + std::to_string(light) + ",255)";
}

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

}  // namespace

void write_placement_svg(std::ostream& out, const Topology& topology,
                         const std::vector<int>& placement, const std::vector<double>& outage,
                         const std::string& title) {
  const auto& dims = topology.dims();
  int columns = dims[0];
  int rows = dims.size() > 1 ? dims[1] : 1;
  int panels = topology.node_count() / (columns * rows);
  int panels_per_line = std::max(1, std::min(panels, 1200 / (columns * kCell + kGap)));
  int panel_lines = (panels + panels_per_line - 1) / panels_per_line;

  std::vector<int> tasks_on(topology.node_count(), 0);
  for (int node : placement) ++tasks_on.at(node);
  int max_tasks = *std::max_element(tasks_on.begin(), tasks_on.end());

  int width = panels_per_line * (columns * kCell + kGap) + kGap;
  int height = kHeader + panel_lines * (rows * kCell + kGap + 14) + kGap;
  out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
      << "' font-family='sans-serif' font-size='10'>\n"
      << "<rect width='100%' height='100%' fill='white'/>\n"
      << "<text x='" << kGap << "' y='18' font-size='14'>" << escape(title) << "</text>\n"
      << "<text x='" << kGap << "' y='34'>" << escape(topology.describe())
      << "; number = tasks on the node; red border = outage probability &gt; 0</text>\n";
  for (int panel = 0; panel < panels; ++panel) {
    int left = kGap + (panel % panels_per_line) * (columns * kCell + kGap);
    int top = kHeader + (panel / panels_per_line) * (rows * kCell + kGap + 14);
    out << "<text x='" << left << "' y='" << top + 10 << "'>plane " << panel << "</text>\n";
    for (int row = 0; row < rows; ++row)
      for (int column = 0; column < columns; ++column) {
        int node = column + columns * (row + rows * panel);
        bool faulty = !outage.empty() && outage[node] > 0;
        int x = left + column * kCell;
        int y = top + 14 + row * kCell;
        out << "<rect x='" << x << "' y='" << y << "' width='" << kCell - 2 << "' height='"
            << kCell - 2 << "' fill='" << fill_for(tasks_on[node], max_tasks) << "' stroke='"
            << (faulty ? "red' stroke-width='2.5" : "#999") << "'><title>"
            << escape(topology.node_name(node)) << ": " << tasks_on[node] << " task(s)"
            << (faulty ? ", outage > 0" : "") << "</title></rect>\n";
        if (tasks_on[node] > 0)
          out << "<text x='" << x + kCell / 2 - 1 << "' y='" << y + kCell / 2 + 3
              << "' text-anchor='middle' fill='white'>" << tasks_on[node] << "</text>\n";
      }
  }
  out << "</svg>\n";
}

}  // namespace tofa
