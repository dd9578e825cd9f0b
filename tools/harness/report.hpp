// Pieces of tofa-harness's report: the failure model as it was drawn, the
// estimates per class of node, the table on stdout and the charts.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/failure_model.hpp"

namespace tofa::harness {

/// The failure model's settings and how many nodes it made failing or frozen.
nlohmann::ordered_json failure_report(const FailureModel& model, int node_count,
                                      double freeze_round);

/// Failure (up -> down) and repair events the responder groups drew, from
/// the DIR/group-N.events files they write when they stop.
nlohmann::ordered_json failure_events(const std::string& dir, int groups);

/// Mean estimate of healthy, failing and frozen nodes.
nlohmann::ordered_json estimates_by_class(const FailureModel& model,
                                          const std::vector<double>& estimates);

/// One line per strategy on stdout.
void print_strategy_table(const nlohmann::ordered_json& strategies);

/// harness-charts.py REPORT DIR (SVG, and PNG with rsvg-convert); a failure
/// is reported, not fatal.
void write_charts(const std::string& script, const std::string& report, const std::string& dir);

}  // namespace tofa::harness
