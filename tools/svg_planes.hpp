// The torus drawn as SVG panels, one per plane of dimension 2 (and higher),
// each a grid of dimension 0 (columns) by dimension 1 (rows): the layout
// tofa-map --svg and tofactl links --svg share.
#pragma once

#include <algorithm>
#include <string>

#include "topology/topology.hpp"

namespace tofa {

/// Text for SVG: <, > and & escaped.
inline std::string svg_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

class PlaneLayout {
 public:
  static constexpr int kGap = 18;
  static constexpr int kHeader = 44;
  static constexpr int kPanelTitle = 14;

  PlaneLayout(const Topology& topology, int cell) : cell_(cell) {
    const auto& dims = topology.dims();
    columns_ = dims[0];
    rows_ = dims.size() > 1 ? dims[1] : 1;
    panels_ = topology.node_count() / (columns_ * rows_);
    per_line_ = std::max(1, std::min(panels_, 1200 / (columns_ * cell_ + kGap)));
  }

  int panels() const { return panels_; }
  int width() const { return per_line_ * (columns_ * cell_ + kGap) + kGap; }
  int height() const {
    const int lines = (panels_ + per_line_ - 1) / per_line_;
    return kHeader + lines * (rows_ * cell_ + kGap + kPanelTitle) + kGap;
  }
  /// The top-left corner of a panel's title.
  int panel_left(int panel) const { return kGap + (panel % per_line_) * (columns_ * cell_ + kGap); }
  int panel_top(int panel) const {
    return kHeader + (panel / per_line_) * (rows_ * cell_ + kGap + kPanelTitle);
  }
  /// The top-left corner of a node's cell.
  int x(int node) const { return panel_left(panel_of(node)) + node % columns_ * cell_; }
  int y(int node) const {
    return panel_top(panel_of(node)) + kPanelTitle + node / columns_ % rows_ * cell_;
  }

  /// The opening <svg>, a white page, the title and a line under it.
  std::string header(const std::string& title, const std::string& legend) const {
    return "<svg xmlns='http://www.w3.org/2000/svg' width='" + std::to_string(width()) +
           "' height='" + std::to_string(height()) +
           "' font-family='sans-serif' font-size='10'>\n"
           "<rect width='100%' height='100%' fill='white'/>\n<text x='" + std::to_string(kGap) +
           "' y='18' font-size='14'>" + svg_escape(title) + "</text>\n<text x='" +
           std::to_string(kGap) + "' y='34'>" + svg_escape(legend) + "</text>\n";
  }
  /// "plane N" above each panel.
  std::string panel_titles() const {
    std::string text;
    for (int panel = 0; panel < panels_; ++panel)
      text += "<text x='" + std::to_string(panel_left(panel)) + "' y='" +
              std::to_string(panel_top(panel) + 10) + "'>plane " + std::to_string(panel) + "</text>\n";
    return text;
  }

 private:
  int panel_of(int node) const { return node / (columns_ * rows_); }

  int cell_;
  int columns_ = 1, rows_ = 1, panels_ = 1, per_line_ = 1;
};

}  // namespace tofa
