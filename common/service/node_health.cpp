#include "service/node_health.hpp"

#include "base/error.hpp"
#include "service/protocol.hpp"
#include "service/state_text.hpp"

namespace tofa::service {
namespace {

double probability_of(const NodeRecord& r, const OutageModel& model) {
  if (r.override_probability) return *r.override_probability;
  return r.history.outage_probability(model);
}

}  // namespace

void NodeHealth::record(const std::string& node, bool answered, double now,
                        const OutageModel& model) {
  NodeRecord& r = records_[node];
  r.answered_since_start = r.answered_since_start || answered;
  if (r.answered_since_start) r.history.record(answered, model);
  r.last_heartbeat = now;
  r.last_answered = answered;
  if (answered) r.last_answer = now;
  if (cache_.valid && cache_.model != model) cache_.valid = false;
  refresh_cached(node, r);
}

void NodeHealth::refresh_cached(const std::string& node, const NodeRecord& record) {
  if (!cache_.valid) return;
  const int id = cache_.topology->node_by_name(node);
  if (id < 0) return;
  // use_count is read under the caller's lock: a snapshot released meanwhile
  // costs at most one needless copy.
  if (cache_.outage.use_count() > 1)
    cache_.outage = std::make_shared<std::vector<double>>(*cache_.outage);
  (*cache_.outage)[id] = probability_of(record, cache_.model);
}

void NodeHealth::set_override(const std::string& node, double probability) {
  if (!(probability >= 0 && probability <= 1))
    throw Error("bad outage probability " + format_number(probability) +
                ": expected a number in [0, 1]");
  NodeRecord& r = records_[node];
  r.override_probability = probability;
  refresh_cached(node, r);
}

bool NodeHealth::clear_override(const std::string& node) {
  const auto found = records_.find(node);
  if (found == records_.end() || !found->second.override_probability) return false;
  found->second.override_probability.reset();
  refresh_cached(node, found->second);
  return true;
}

double NodeHealth::probability(const std::string& node, const OutageModel& model) const {
  const NodeRecord* r = find(node);
  return r == nullptr ? 0 : probability_of(*r, model);
}

const std::vector<double>& NodeHealth::outage_vector(const Topology& topology,
                                                     const OutageModel& model) const {
  return *outage_snapshot(topology, model);
}

std::shared_ptr<const std::vector<double>> NodeHealth::outage_snapshot(
    const Topology& topology, const OutageModel& model) const {
  if (cache_.valid && cache_.topology == &topology && cache_.model == model &&
      cache_.outage->size() == static_cast<std::size_t>(topology.node_count()))
    return cache_.outage;
  auto outage = std::make_shared<std::vector<double>>(topology.node_count(), 0.0);
  for (int id = 0; id < topology.node_count(); ++id)
    (*outage)[id] = probability(topology.node_name(id), model);
  cache_ = {true, &topology, model, std::move(outage)};
  return cache_.outage;
}

const NodeRecord* NodeHealth::find(const std::string& node) const {
  const auto found = records_.find(node);
  return found == records_.end() ? nullptr : &found->second;
}

std::string NodeHealth::to_text() const {
  std::string text = state_header("nodes");
  for (const auto& [name, r] : records_) {
    // The history's own one-line form follows the fixed fields.
    text += format_message("node", {{"name", name},
                                    {"heartbeat", state_number(r.last_heartbeat)},
                                    {"answer", state_number(r.last_answer)},
                                    {"answered_last", r.last_answered ? "1" : "0"},
                                    {"override", r.override_probability
                                                     ? state_number(*r.override_probability)
                                                     : "none"}}) +
            " " + r.history.to_text() + "\n";
  }
  return text;
}

NodeHealth NodeHealth::parse(const std::string& text, const std::string& source,
                             LoadNotes* notes) {
  NodeHealth health;
  parse_state_records(text, source, "nodes", "tofa-nodes 1", notes, [&](const StateLine& fields) {
    if (fields.kind() != "node") fields.fail("expected 'node', found '" + fields.kind() + "'");
    const std::string name = fields.text("name");
    if (name.empty()) fields.fail("empty node name");
    NodeRecord r;
    r.last_heartbeat = fields.number("heartbeat");
    r.last_answer = fields.number("answer");
    r.last_answered = fields.integer("answered_last", 0, 1) == 1;
    if (fields.text("override") != "none") {
      const double p = fields.number("override");
      if (!(p >= 0 && p <= 1)) fields.fail("bad override: expected a number in [0, 1]");
      r.override_probability = p;
    }
    const std::string& line = fields.line_text();
    const std::size_t history_at = line.find(" answered=");
    if (history_at == std::string::npos) fields.fail("missing heartbeat history");
    try {
      r.history = HeartbeatHistory::from_text(line.substr(history_at + 1));
    } catch (const Error& e) {
      fields.fail(e.what());
    }
    if (health.records_.count(name)) fields.fail("node " + name + " is listed twice");
    health.records_.emplace(name, std::move(r));
  });
  return health;
}

}  // namespace tofa::service
