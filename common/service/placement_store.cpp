#include "service/placement_store.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "service/protocol.hpp"
#include "service/state_text.hpp"

namespace tofa::service {

std::string join_nodes(const std::vector<std::string>& nodes) {
  std::string text;
  for (std::size_t i = 0; i < nodes.size(); ++i) text += (i ? "," : "") + nodes[i];
  return text;
}

std::vector<std::string> split_nodes(const std::string& text) {
  std::vector<std::string> nodes;
  if (text.empty()) return nodes;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    nodes.push_back(text.substr(start, comma - start));
    if (comma == std::string::npos) return nodes;
    start = comma + 1;
  }
}

std::vector<std::string> clamp_metrics(PlacementMetrics& m) {
  std::vector<std::string> clamped;
  const std::pair<const char*, double*> values[] = {
      {"total_bytes", &m.total_bytes},   {"hop_bytes", &m.hop_bytes},
      {"average_hops", &m.average_hops}, {"hop_variance", &m.hop_variance},
      {"dilation", &m.dilation},         {"max_link_load", &m.max_link_load},
      {"abort_probability", &m.abort_probability}};
  for (const auto& [name, value] : values) {
    if (std::isfinite(*value)) continue;
    const double finite = clamp_to_finite(*value);
    clamped.push_back(std::string(name) + "=" + format_number(*value) + " is not finite, kept as " +
                      format_number(finite));
    *value = finite;
  }
  return clamped;
}

std::vector<std::pair<std::string, std::string>> metrics_fields(const PlacementMetrics& m) {
  return {{"tasks", std::to_string(m.tasks)},
          {"nodes_used", std::to_string(m.nodes_used)},
          {"total_bytes", format_number(m.total_bytes)},
          {"hop_bytes", format_number(m.hop_bytes)},
          {"average_hops", format_number(m.average_hops)},
          {"hop_variance", format_number(m.hop_variance)},
          {"max_hops", std::to_string(m.max_hops)},
          {"dilation", format_number(m.dilation)},
          {"max_link_load", format_number(m.max_link_load)},
          {"links_used", std::to_string(m.links_used)},
          {"abort_probability", format_number(m.abort_probability)}};
}

void PlacementStore::set_retention(int retention) {
  retention_ = std::max(1, retention);
  evict();
}

namespace {

std::string record_line(const PlacementRecord& r) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"job", std::to_string(r.job)},   {"uid", std::to_string(r.uid)},
      {"graph", r.graph_id},            {"strategy", r.strategy},
      {"time", state_number(r.time)},  {"nodes", join_nodes(r.nodes)}};
  PlacementMetrics metrics = r.metrics;
  clamp_metrics(metrics);  // put() did; a state file must never hold inf
  for (auto& field : metrics_fields(metrics)) fields.push_back(std::move(field));
  return format_message("placement", fields) + "\n";
}

}  // namespace

void PlacementStore::put(PlacementRecord record) {
  clamp_metrics(record.metrics);
  record.sequence = next_sequence_++;
  const unsigned job = record.job;
  lines_[job] = std::make_shared<const std::string>(record_line(record));
  records_[job] = std::move(record);
  evict();
}

bool PlacementStore::update(unsigned job, const std::function<void(PlacementRecord&)>& change) {
  const auto found = records_.find(job);
  if (found == records_.end()) return false;
  change(found->second);
  clamp_metrics(found->second.metrics);
  lines_[job] = std::make_shared<const std::string>(record_line(found->second));
  return true;
}

void PlacementStore::erase(unsigned job) {
  records_.erase(job);
  lines_.erase(job);
}

void PlacementStore::evict() {
  while (records_.size() > static_cast<std::size_t>(retention_)) {
    auto oldest = std::min_element(records_.begin(), records_.end(), [](const auto& a, const auto& b) {
      return a.second.sequence < b.second.sequence;
    });
    lines_.erase(oldest->first);
    records_.erase(oldest);
  }
}

const PlacementRecord* PlacementStore::find(unsigned job) const {
  const auto found = records_.find(job);
  return found == records_.end() ? nullptr : &found->second;
}

PlacementStore::Lines PlacementStore::lines() const {
  Lines out;
  out.reserve(records_.size());
  for (const auto& [job, record] : records_) out.emplace_back(record.sequence, lines_.at(job));
  return out;
}

std::string PlacementStore::text_of(Lines lines) {
  std::sort(lines.begin(), lines.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t size = 0;
  for (const auto& line : lines) size += line.second->size();
  std::string text = state_header("placements");
  text.reserve(text.size() + size);
  for (const auto& line : lines) text += *line.second;
  return text;
}

std::string PlacementStore::to_text() const { return text_of(lines()); }

PlacementStore PlacementStore::parse(const std::string& text, const std::string& source,
                                     int retention, LoadNotes* notes) {
  PlacementStore store(retention);
  parse_state_records(text, source, "placements", "tofa-placements 1", notes,
                      [&](const StateLine& f) {
    if (f.kind() != "placement") f.fail("expected 'placement', found '" + f.kind() + "'");
    PlacementRecord r;
    r.job = static_cast<unsigned>(f.integer("job", 1, 4294967295LL));
    r.uid = static_cast<uid_t>(f.integer("uid", 0, 4294967295LL));
    r.graph_id = f.text("graph");
    r.strategy = f.text("strategy");
    r.time = f.number("time");
    const std::string nodes = f.text("nodes");
    std::size_t start = 0;
    while (start <= nodes.size()) {
      std::size_t comma = std::min(nodes.find(',', start), nodes.size());
      r.nodes.push_back(nodes.substr(start, comma - start));
      if (r.nodes.back().empty()) f.fail("empty node name in nodes");
      start = comma + 1;
    }
    PlacementMetrics& m = r.metrics;
    m.tasks = static_cast<int>(f.integer("tasks", 0, 1 << 30));
    if (m.tasks != static_cast<int>(r.nodes.size()))
      f.fail("tasks=" + std::to_string(m.tasks) + " but " + std::to_string(r.nodes.size()) +
             " nodes are listed");
    m.nodes_used = static_cast<int>(f.integer("nodes_used", 0, 1 << 30));
    m.max_hops = static_cast<int>(f.integer("max_hops", 0, 1 << 30));
    m.links_used = static_cast<int>(f.integer("links_used", 0, 1 << 30));
    // The node list is what a job needs; a metric tofa once wrote as inf
    // does not cost the record.
    LoadNotes clamped;
    m.total_bytes = f.clamped_number("total_bytes", clamped);
    m.hop_bytes = f.clamped_number("hop_bytes", clamped);
    m.average_hops = f.clamped_number("average_hops", clamped);
    m.hop_variance = f.clamped_number("hop_variance", clamped);
    m.dilation = f.clamped_number("dilation", clamped);
    m.max_link_load = f.clamped_number("max_link_load", clamped);
    m.abort_probability = f.clamped_number("abort_probability", clamped);
    if (store.find(r.job)) f.fail("job " + std::to_string(r.job) + " is listed twice");
    store.put(std::move(r));
    if (notes) notes->insert(notes->end(), clamped.begin(), clamped.end());
  });
  return store;
}

}  // namespace tofa::service
