#include "tofactl_format.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>

#include "base/error.hpp"
#include "base/printable.hpp"
#include "links_svg.hpp"
#include "service/client.hpp"
#include "service/placement_store.hpp"
#include "service/protocol.hpp"

namespace tofactl {
namespace {

using tofa::service::Message;

std::vector<std::map<std::string, std::string>> rows_of(const Message& reply,
                                                        const std::string& kind) {
  std::vector<std::map<std::string, std::string>> rows;
  std::size_t start = 0;
  while (start < reply.body.size()) {
    std::size_t end = reply.body.find('\n', start);
    if (end == std::string::npos) end = reply.body.size();
    const std::string line = reply.body.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    if (line.compare(0, kind.size() + 1, kind + " ") != 0)
      throw tofa::Error("unexpected line in the service's reply: '" + line.substr(0, 60) + "'");
    rows.push_back(tofa::service::parse_fields(line.substr(kind.size() + 1)));
  }
  return rows;
}

std::string get(const std::map<std::string, std::string>& row, const std::string& key) {
  const auto found = row.find(key);
  if (found == row.end()) throw tofa::Error("the service's reply lacks field " + key);
  return found->second;
}

double number(const std::string& text) {
  try {
    return std::stod(text);
  } catch (const std::exception&) {
    throw tofa::Error("the service's reply has a bad number '" + text + "'");
  }
}

std::string probability(const std::string& text) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", number(text));
  return buffer;
}

std::string format_percent(double share) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * share);
  return buffer;
}

}  // namespace

std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) width[c] = header[c].size();
  // Every cell may hold text a user chose (a graph's file name): printed
  // to root's terminal only with its control characters escaped.
  std::vector<std::vector<std::string>> safe;
  for (const auto& row : rows) {
    safe.emplace_back();
    for (const std::string& cell : row) safe.back().push_back(tofa::printable(cell));
  }
  for (const auto& row : safe)
    for (std::size_t c = 0; c < row.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], row[c].size());
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      text += cells[c];
      if (c + 1 < cells.size()) text += std::string(width[c] - cells[c].size() + 2, ' ');
    }
    return text + "\n";
  };
  std::string out = line(header);
  for (const auto& row : safe) out += line(row);
  return out;
}

std::string format_time(double epoch) {
  if (epoch <= 0) return "never";
  const std::time_t seconds = static_cast<std::time_t>(epoch);
  std::tm local{};
  localtime_r(&seconds, &local);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &local);
  return buffer;
}

std::string format_nodes(const std::string& reply) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& n : rows_of(tofa::service::parse_message(reply), "node"))
    rows.push_back({get(n, "name"), get(n, "state"), probability(get(n, "p")),
                    format_time(number(get(n, "heartbeat"))), get(n, "answered"),
                    get(n, "missed"), get(n, "source")});
  return format_table(
      {"NODE", "STATE", "P(OUTAGE)", "LAST_HEARTBEAT", "ANSWERED", "MISSED", "SOURCE"}, rows);
}

std::string format_graphs(const std::string& reply) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& g : rows_of(tofa::service::parse_message(reply), "graph"))
    rows.push_back({get(g, "id"), get(g, "uid"), get(g, "name"), get(g, "tasks"),
                    get(g, "bytes"), format_time(number(get(g, "uploaded"))),
                    format_time(number(get(g, "used")))});
  return format_table({"ID", "UID", "NAME", "TASKS", "BYTES", "UPLOADED", "LAST_USED"}, rows);
}

std::string format_job(const std::string& reply) {
  const Message m = tofa::service::parse_message(reply);
  std::string out;
  for (const char* key : {"job", "uid", "graph", "strategy"})
    out += std::string(key) + ": " + tofa::printable(m.field(key)) + "\n";
  out += "time: " + format_time(number(m.field("time"))) + "\n";
  for (const char* key : {"tasks", "nodes_used", "total_bytes", "hop_bytes", "average_hops",
                          "hop_variance", "max_hops", "dilation", "max_link_load", "links_used",
                          "abort_probability"})
    out += std::string(key) + ": " + tofa::printable(m.field(key)) + "\n";
  const std::string shared = m.field_or("shared_traffic", "");
  out += "shared_traffic: " +
         (shared.empty() ? std::string("unknown (not running, or slurmctld has not said yet)")
                         : format_percent(number(shared)) + " of its link traffic on links other running jobs use") +
         "\n";
  const std::vector<std::string> nodes = tofa::service::split_nodes(m.field("nodes"));
  std::vector<std::vector<std::string>> rows;
  for (std::size_t task = 0; task < nodes.size(); ++task)
    rows.push_back({std::to_string(task), nodes[task]});
  return out + format_table({"TASK", "NODE"}, rows);
}

std::string format_links(const std::string& reply) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& link : rows_of(tofa::service::parse_message(reply), "link"))
    rows.push_back({get(link, "from"), get(link, "to"), get(link, "bytes"), get(link, "jobs")});
  return format_table({"FROM", "TO", "BYTES", "JOBS"}, rows);
}

namespace {

int node_of(const tofa::Topology& topology, const std::string& name) {
  const int node = topology.node_by_name(name);
  if (node < 0)
    throw tofa::Error("the service names node '" + tofa::printable(name) +
                      "', which is not in tofa.conf's topology");
  return node;
}

}  // namespace

std::vector<double> link_loads_of(const std::string& reply, const tofa::Topology& topology) {
  std::vector<double> loads(topology.link_slot_count(), 0.0);
  for (const auto& row : rows_of(tofa::service::parse_message(reply), "link")) {
    const int from = node_of(topology, get(row, "from")), to = node_of(topology, get(row, "to"));
    const int id = tofa::link_between(topology, from, to);
    if (id < 0)
      throw tofa::Error("the service's link " + get(row, "from") + " -> " + get(row, "to") +
                        " joins no neighbours of tofa.conf's topology");
    loads[id] += number(get(row, "bytes"));
  }
  return loads;
}

std::vector<double> outage_of(const std::string& reply, const tofa::Topology& topology) {
  std::vector<double> outage(topology.node_count(), 0.0);
  // The state may keep nodes of an earlier topology: not drawn.
  for (const auto& row : rows_of(tofa::service::parse_message(reply), "node"))
    if (const int node = topology.node_by_name(get(row, "name")); node >= 0)
      outage[node] = number(get(row, "p"));
  return outage;
}

}  // namespace tofactl
