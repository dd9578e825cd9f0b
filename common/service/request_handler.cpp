#include "service/request_handler.hpp"

#include <cstdlib>

#include <charconv>
#include <cmath>
#include <new>
#include <system_error>

#include "base/error.hpp"
#include "service/placement_store.hpp"
#include "service/protocol.hpp"
#include "service/state_text.hpp"

namespace tofa::service {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

long long integer_field(const Message& m, const std::string& key, long long low, long long high,
                        long long fallback) {
  const auto found = m.fields.find(key);
  if (found == m.fields.end()) return fallback;
  const std::string& text = found->second;
  long long value = 0;
  auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() ||
      value < low || value > high)
    throw Error("bad " + key + " '" + text + "': expected an integer in " + std::to_string(low) +
                ".." + std::to_string(high));
  return value;
}

unsigned job_field(const Message& m) {
  m.field("job");  // throws "missing field job"
  return static_cast<unsigned>(integer_field(m, "job", 1, 4294967295LL, 0));
}

double probability_field(const Message& m) {
  const std::string& text = m.field("p");
  double value = 0;
  auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || parsed.ec != std::errc() || parsed.ptr != text.data() + text.size() ||
      !(value >= 0 && value <= 1))
    throw Error("bad p '" + text + "': expected a probability in [0, 1]");
  return value;
}

Fields placement_fields(const PlacementRecord& r, bool with_details) {
  Fields fields;
  if (r.job != 0) fields.emplace_back("job", std::to_string(r.job));
  if (with_details) {
    fields.emplace_back("uid", std::to_string(r.uid));
    fields.emplace_back("graph", r.graph_id);
    fields.emplace_back("time", format_number(r.time));
  }
  fields.emplace_back("strategy", r.strategy);
  fields.emplace_back("nodes", join_nodes(r.nodes));
  for (auto& field : metrics_fields(r.metrics)) fields.push_back(std::move(field));
  return fields;
}

std::string upload_graph(ServiceState& state, const Message& m, uid_t uid) {
  const GraphUpload upload = state.upload_graph(uid, m.field_or("name", "graph"), m.body);
  return format_message("OK", {{"id", upload.id},
                               {"tasks", std::to_string(upload.task_count)},
                               {"existing", upload.already_stored ? "1" : "0"}});
}

std::string list_graphs(ServiceState& state, uid_t uid) {
  const std::vector<GraphRecord> graphs = state.graphs(uid);
  std::string body;
  for (const GraphRecord& g : graphs)
    body += format_message("graph", {{"id", g.id},
                                     {"uid", std::to_string(g.uid)},
                                     {"name", g.name},
                                     {"tasks", std::to_string(g.task_count)},
                                     {"bytes", std::to_string(g.bytes)},
                                     {"uploaded", format_number(g.uploaded)},
                                     {"used", format_number(g.last_used)}}) +
            "\n";
  return format_message("OK", {{"count", std::to_string(graphs.size())}}, body);
}

std::string list_nodes(ServiceState& state) {
  const std::vector<NodeReport> nodes = state.nodes();
  std::string body;
  for (const NodeReport& n : nodes)
    body += format_message("node", {{"name", n.name},
                                    {"state", n.state},
                                    {"p", format_number(n.probability)},
                                    {"source", n.source},
                                    {"heartbeat", format_number(n.last_heartbeat)},
                                    {"answer", format_number(n.last_answer)},
                                    {"answered", std::to_string(n.answered)},
                                    {"missed", std::to_string(n.missed)}}) +
            "\n";
  return format_message("OK", {{"count", std::to_string(nodes.size())}}, body);
}

/// "N" or "MIN-MAX" (srun -N), 0 = no bound.
void parse_node_count(const std::string& text, int& min, int& max) {
  const auto number = [&](const std::string& digits) {
    if (digits.empty() || digits.size() > 7 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      throw Error("nodes=" + text.substr(0, 40) + ": expected N or MIN-MAX");
    return std::stoi(digits);
  };
  const std::size_t dash = text.find('-');
  min = number(text.substr(0, dash));
  max = dash == std::string::npos ? min : number(text.substr(dash + 1));
  if (max != 0 && max < min) throw Error("nodes=" + text + ": MAX below MIN");
}

std::string place(ServiceState& state, const Message& m, uid_t uid) {
  PlaceRequest request;
  request.uid = uid;
  request.graph_id = m.field("graph");
  const std::string job = m.field_or("job", "none");
  if (job != "none")
    request.job = static_cast<unsigned>(integer_field(m, "job", 1, 4294967295LL, 0));
  request.tasks = static_cast<int>(integer_field(m, "tasks", 0, 1 << 30, 0));
  request.strategy = m.field_or("strategy", "");
  request.candidates = m.field_or("candidates", "");
  request.slots_per_node = static_cast<int>(integer_field(m, "slots", 0, 1 << 20, 0));
  request.parameters = m.field_or("params", "");
  parse_node_count(m.field_or("nodes", "0"), request.min_nodes, request.max_nodes);
  request.claim = m.field_or("claim", "no") == "yes";
  request.wait_until_saved = true;  // OK means the record survives a crash
  return format_message("OK", placement_fields(state.place(request), false));
}

/// The running jobs' busiest links (top=N, default 20; 0: every loaded link).
std::string list_links(ServiceState& state, const Message& m) {
  const std::string top_text = m.field_or("top", "20");
  char* end = nullptr;
  const long top = std::strtol(top_text.c_str(), &end, 10);
  if (*end != '\0' || top < 0 || top > (1L << 24)) throw Error("top=" + top_text + ": expected 0 to 16777216");
  const std::vector<ServiceState::LinkLoad> links = state.busiest_links(static_cast<int>(top));
  std::string body;
  for (const ServiceState::LinkLoad& link : links)
    body += format_message("link", {{"from", link.from}, {"to", link.to},
                                    {"bytes", format_number(link.bytes)},
                                    {"jobs", std::to_string(link.jobs)}}) + "\n";
  return format_message("OK", {{"count", std::to_string(links.size())}}, body);
}

std::string dispatch(ServiceState& state, const Message& m, uid_t uid) {
  const std::string& verb = m.verb;
  if (verb == "PING")
    return format_message("OK", {{"service", "tofa"},
                                 {"protocol", "1"},
                                 {"uid", std::to_string(uid)},
                                 {"admin", state.is_admin(uid) ? "1" : "0"}});
  if (verb == "UPLOAD_GRAPH") return upload_graph(state, m, uid);
  if (verb == "GRAPHS") return list_graphs(state, uid);
  if (verb == "DELETE_GRAPH") {
    state.delete_graph(m.field("id"), uid);
    return "OK";
  }
  if (verb == "NODES") return list_nodes(state);
  if (verb == "SET_OUTAGE") {
    state.set_outage(uid, m.field("node"), probability_field(m));
    return "OK";
  }
  if (verb == "CLEAR_OUTAGE") {
    state.clear_outage(uid, m.field("node"));
    return "OK";
  }
  if (verb == "PLACE") return place(state, m, uid);
  if (verb == "RECORD")
    return format_message("OK", placement_fields(
                                    state.record_placement(uid, m.field("graph"), job_field(m),
                                                           m.field_or("strategy", ""),
                                                           split_nodes(m.field("nodes"))),
                                    false));
  if (verb == "PLACEMENT") {
    // take=yes: the step stops waiting for the strategy and runs what it gets.
    const PlacementRecord r = m.field_or("take", "no") == "yes"
                                  ? state.take_placement(job_field(m), uid)
                                  : state.job_placement(job_field(m), uid);
    std::vector<std::pair<std::string, std::string>> fields = {
        {"job", std::to_string(r.job)}, {"graph", r.graph_id}, {"nodes", join_nodes(r.nodes)}};
    if (r.pending) fields.emplace_back("pending", "yes");
    return format_message("OK", fields);
  }
  if (verb == "JOB") {
    const unsigned job = job_field(m);
    Fields fields = placement_fields(state.job_placement(job, uid), true);
    if (const std::optional<double> shared = state.shared_traffic(job))
      fields.emplace_back("shared_traffic", format_number(*shared));
    return format_message("OK", fields);
  }
  if (verb == "LINKS") return list_links(state, m);
  throw Error("unknown verb " + verb + ": expected " + kServiceVerbs);
}

/// Errors are one line: a multi-line reason would be taken for a body.
std::string error_reply(std::string reason) {
  for (char& c : reason)
    if (c == '\n' || c == '\r') c = ' ';
  return "ERROR " + reason;
}

}  // namespace

std::string handle_request(ServiceState& state, const std::string& request, uid_t uid) noexcept {
  try {
    try {
      return dispatch(state, parse_message(request), uid);
    } catch (const std::bad_alloc&) {
      return error_reply("out of memory");
    } catch (const std::exception& e) {
      return error_reply(e.what());
    } catch (...) {
      return error_reply("unknown error");
    }
  } catch (...) {  // building the error reply itself failed
    return std::string();
  }
}

}  // namespace tofa::service
