// tofa.conf service keys; topology lines go to parse_topology unchanged.
#include "service/tofa_conf.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

#include "base/error.hpp"
#include "map/mapper.hpp"

namespace tofa::service {
namespace {

const char* const kTopologyKeys[] = {"Dims", "Wrap", "CoresPerNode", "NodeName", "Coord"};

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

/// Canonical spelling of a service key, or "" when it is not one.
std::string canonical_service_key(const std::string& key) {
  for (const std::string& known : service_keys())
    if (lower(known) == lower(key)) return known;
  return "";
}

bool is_topology_key(const std::string& key) {
  for (const char* known : kTopologyKeys)
    if (lower(known) == lower(key)) return true;
  return false;
}

std::string known_keys_text() {
  std::string text;
  std::vector<std::string> all(std::begin(kTopologyKeys), std::end(kTopologyKeys));
  for (const std::string& key : service_keys()) all.push_back(key);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i > 0) text += i + 1 == all.size() ? " or " : ", ";
    text += all[i];
  }
  return text;
}

struct Token {
  std::string key;
  std::string value;
  int key_column = 0;
  int value_column = 0;
};

bool parse_double(const std::string& text, double& value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, value);
  return result.ec == std::errc() && result.ptr == end && std::isfinite(value);
}

bool parse_long(const std::string& text, long long& value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto result = std::from_chars(text.data(), end, value);
  return result.ec == std::errc() && result.ptr == end;
}

std::string format_double(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

class ConfParser {
 public:
  ConfParser(std::istream& in, const std::string& source) : in_(in), source_(source) {}

  /// Parses everything; `topology_text` receives the file with service lines blanked.
  ServiceSettings parse(std::string* topology_text) {
    for (std::string line; std::getline(in_, line);) {
      ++line_number_;
      const bool service_line = parse_line(line);
      if (topology_text) *topology_text += (service_line ? std::string() : line) + "\n";
    }
    return settings_;
  }

 private:
  ParseError error(int column, const std::string& message) const {
    return ParseError(source_, line_number_, column, message);
  }

  std::vector<Token> tokens(std::string line) const {
    const std::size_t comment = line.find('#');
    if (comment != std::string::npos) line.erase(comment);
    std::vector<Token> tokens;
    std::size_t pos = 0;
    while ((pos = line.find_first_not_of(" \t\r\v\f", pos)) != std::string::npos) {
      const std::size_t end = std::min(line.find_first_of(" \t\r\v\f", pos), line.size());
      const std::string text = line.substr(pos, end - pos);
      const int column = static_cast<int>(pos) + 1;
      const std::size_t equals = text.find('=');
      if (equals == std::string::npos || equals == 0)
        throw error(column, "expected 'Key=Value', found '" + text + "'");
      tokens.push_back({text.substr(0, equals), text.substr(equals + 1), column,
                        column + static_cast<int>(equals) + 1});
      pos = end;
    }
    return tokens;
  }

  /// True when the line holds service keys.
  bool parse_line(const std::string& line) {
    const std::vector<Token> fields = tokens(line);
    if (fields.empty()) return false;
    for (const Token& token : fields)
      if (canonical_service_key(token.key).empty() && !is_topology_key(token.key))
        throw error(token.key_column,
                    "unknown key '" + token.key + "': expected " + known_keys_text());
    const bool service_line = !canonical_service_key(fields[0].key).empty();
    for (const Token& token : fields) {
      const std::string key = canonical_service_key(token.key);
      if (service_line && key.empty())
        throw error(token.key_column, "'" + token.key + "' belongs on a topology line, not among "
                                      "service settings");
      if (!service_line && !key.empty())
        throw error(token.key_column, "'" + key + "' belongs on its own line, not on a " +
                                          "topology line");
      if (service_line) set(key, token);
    }
    return service_line;
  }

  // long: one branch per tofa.conf key, each with its own range check and message.
  void set(const std::string& key, const Token& token) {
    const auto seen = lines_.find(key);
    if (seen != lines_.end())
      throw error(token.key_column,
                  key + " is given twice (first on line " + std::to_string(seen->second) + ")");
    lines_.emplace(key, line_number_);
    const std::string& v = token.value;
    ServiceSettings& s = settings_;
    auto number = [&](double low, bool low_inclusive, const char* expected) {
      double value = 0;
      if (!parse_double(v, value) || !std::isfinite(value) || value < low ||
          (!low_inclusive && value == low))
        throw error(token.value_column, "bad " + key + " '" + v + "': expected " + expected);
      return value;
    };
    auto integer = [&](long long low, long long high, const char* expected) {
      long long value = 0;
      if (!parse_long(v, value) || value < low || value > high)
        throw error(token.value_column, "bad " + key + " '" + v + "': expected " + expected);
      return value;
    };
    if (key == "ServiceHost") {
      s.service_host = v;
    } else if (key == "ServicePort") {
      s.service_port = static_cast<int>(integer(0, 65535, "a port number 0..65535"));
    } else if (key == "ServiceBindAddress") {
      if (v.empty()) throw error(token.value_column, "bad ServiceBindAddress '': expected an address");
      s.bind_address = v;
    } else if (key == "RequestTimeout") {
      s.request_timeout = number(0, false, "seconds > 0");
    } else if (key == "ServiceWait") {
      s.service_wait = number(0, true, "seconds >= 0");
    } else if (key == "PlacementWait") {
      s.placement_wait = number(0, true, "seconds >= 0");
    } else if (key == "HeartbeatInterval") {
      s.heartbeat_interval = number(0, false, "seconds > 0");
    } else if (key == "HeartbeatTimeout") {
      s.heartbeat_timeout = number(0, false, "seconds > 0");
    } else if (key == "HeartbeatPortOffset") {
      s.heartbeat_port_offset = static_cast<int>(integer(-65535, 65535, "an integer -65535..65535"));
    } else if (key == "HeartbeatSessions") {
      if (v != "yes" && v != "no")
        throw error(token.value_column, "bad HeartbeatSessions '" + v + "': expected yes or no");
      s.heartbeat_sessions = v == "yes";
    } else if (key == "OutageModel") {
      try {
        s.outage_model = OutageModel::parse(v);
      } catch (const Error& e) {
        throw error(token.value_column, e.what());
      }
    } else if (key == "DefaultStrategy") {
      try {
        make_mapper(v);
      } catch (const Error& e) {
        throw error(token.value_column, e.what());
      }
      s.default_strategy = v;
    } else if (key == "PlacementBudget") {
      s.placement_budget_ms = number(0, false, "milliseconds > 0");
    } else if (key == "LinkCost") {
      s.fault_cost.link_cost = number(0, false, "a number > 0");
    } else if (key == "FaultPenalty") {
      s.fault_cost.penalty = number(0, true, "a number >= 0");
    } else if (key == "InterferenceWeight") {
      s.interference_weight = number(0, true, "a number >= 0");
    } else if (key == "LinkSharing") {
      if (v != "split-duplex" && v != "shared")
        throw error(token.value_column, "bad LinkSharing '" + v + "': expected split-duplex or shared");
      s.fault_cost.shared_links = v == "shared";
    } else if (key == "MaxGraphBytes") {
      s.max_graph_bytes = integer(1, 1LL << 40, "a positive number of bytes");
    } else if (key == "MaxGraphTasks") {
      s.max_graph_tasks = static_cast<int>(integer(1, 1 << 30, "a positive integer"));
    } else if (key == "MaxGraphsPerUser") {
      s.max_graphs_per_user = static_cast<int>(integer(1, 1 << 30, "a positive integer"));
    } else if (key == "PlacementRetention") {
      s.placement_retention = static_cast<int>(integer(1, 1 << 30, "a positive integer"));
    } else if (key == "MaxConnections") {
      s.max_connections = static_cast<int>(integer(1, 1 << 20, "an integer 1..1048576"));
    } else if (key == "MaxConnectionsPerPeer") {
      s.max_connections_per_peer = static_cast<int>(integer(1, 1 << 20, "an integer 1..1048576"));
    } else if (key == "HeaderTimeout") {
      s.header_timeout = number(0, false, "seconds > 0");
    } else if (key == "MapWorker") {
      if (v.empty() || (v != "none" && v[0] != '/'))
        throw error(token.value_column,
                    "bad MapWorker '" + v + "': expected an absolute path or 'none'");
      s.map_worker.program = v == "none" ? "" : v;
    } else if (key == "MapMemoryLimit") {
      s.map_worker.memory_mb = integer(64, 1LL << 30, "megabytes >= 64");
    } else if (key == "MapTimeLimit") {
      s.map_worker.seconds = number(0, false, "seconds > 0");
    } else if (key == "MapFailure") {
      if (v != "fallback" && v != "wait")
        throw error(token.value_column, "bad MapFailure '" + v + "': expected fallback or wait");
      s.map_failure_waits = v == "wait";
    } else if (key == "OutageThreshold") {
      s.outage_threshold = number(0, true, "a probability 0..1");
      if (s.outage_threshold > 1)
        throw error(token.value_column, "bad OutageThreshold '" + v + "': expected a probability 0..1");
    } else if (key == "OnlyFailingNodesFit") {
      if (v != "wait" && v != "use")
        throw error(token.value_column, "bad OnlyFailingNodesFit '" + v + "': expected wait or use");
      s.only_failing_fit_waits = v == "wait";
    }
  }

  std::istream& in_;
  const std::string source_;
  int line_number_ = 0;
  ServiceSettings settings_;
  std::map<std::string, int> lines_;  // key -> line it was set on
};

std::ifstream open_conf(const std::string& path) {
  std::ifstream in(path);
  struct stat info {};
  if (!in) throw Error("cannot open '" + path + "': " + std::strerror(errno));
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw Error("cannot open '" + path + "': " + std::strerror(EISDIR));
  return in;
}

}  // namespace

std::chrono::milliseconds seconds_to_ms(double seconds) {
  const double ms = std::min(seconds * 1000, 1e12);  // ~30 years: beyond any real timeout
  return std::chrono::milliseconds(std::max<long long>(1, std::llround(ms)));
}

const std::vector<std::string>& service_keys() {
  static const std::vector<std::string> keys = {
      "ServiceHost",      "ServicePort",         "ServiceBindAddress", "RequestTimeout", "ServiceWait", "PlacementWait",
      "HeartbeatInterval", "HeartbeatTimeout",   "HeartbeatPortOffset", "HeartbeatSessions", "OutageModel",
      "DefaultStrategy",  "PlacementBudget",     "LinkCost",            "FaultPenalty",       "InterferenceWeight", "LinkSharing", "MaxGraphBytes",
      "MaxGraphTasks",    "MaxGraphsPerUser",    "PlacementRetention", "MaxConnections",
      "MaxConnectionsPerPeer", "HeaderTimeout",   "MapWorker",          "MapMemoryLimit",
      "MapTimeLimit",     "MapFailure",          "OutageThreshold",    "OnlyFailingNodesFit"};
  return keys;
}

std::string setting_text(const ServiceSettings& s, const std::string& name) {
  const std::string key = canonical_service_key(name);
  if (key == "ServiceHost") return s.service_host;
  if (key == "ServicePort") return std::to_string(s.service_port);
  if (key == "ServiceBindAddress") return s.bind_address;
  if (key == "RequestTimeout") return format_double(s.request_timeout);
  if (key == "ServiceWait") return format_double(s.service_wait);
  if (key == "PlacementWait") return format_double(s.placement_wait);
  if (key == "HeartbeatInterval") return format_double(s.heartbeat_interval);
  if (key == "HeartbeatTimeout") return format_double(s.heartbeat_timeout);
  if (key == "HeartbeatPortOffset") return std::to_string(s.heartbeat_port_offset);
  if (key == "HeartbeatSessions") return s.heartbeat_sessions ? "yes" : "no";
  if (key == "OutageModel") return s.outage_model.to_string();
  if (key == "DefaultStrategy") return s.default_strategy;
  if (key == "PlacementBudget") return format_double(s.placement_budget_ms);
  if (key == "LinkCost") return format_double(s.fault_cost.link_cost);
  if (key == "FaultPenalty") return format_double(s.fault_cost.penalty);
  if (key == "InterferenceWeight") return format_double(s.interference_weight);
  if (key == "LinkSharing") return s.fault_cost.shared_links ? "shared" : "split-duplex";
  if (key == "MaxGraphBytes") return std::to_string(s.max_graph_bytes);
  if (key == "MaxGraphTasks") return std::to_string(s.max_graph_tasks);
  if (key == "MaxGraphsPerUser") return std::to_string(s.max_graphs_per_user);
  if (key == "PlacementRetention") return std::to_string(s.placement_retention);
  if (key == "MaxConnections") return std::to_string(s.max_connections);
  if (key == "MaxConnectionsPerPeer") return std::to_string(s.max_connections_per_peer);
  if (key == "HeaderTimeout") return format_double(s.header_timeout);
  if (key == "MapWorker") return s.map_worker.program.empty() ? "none" : s.map_worker.program;
  if (key == "MapMemoryLimit") return std::to_string(s.map_worker.memory_mb);
  if (key == "MapTimeLimit") return format_double(s.map_worker.seconds);
  if (key == "MapFailure") return s.map_failure_waits ? "wait" : "fallback";
  if (key == "OutageThreshold") return format_double(s.outage_threshold);
  if (key == "OnlyFailingNodesFit") return s.only_failing_fit_waits ? "wait" : "use";
  std::string known;
  for (const std::string& k : service_keys()) known += (known.empty() ? "" : ", ") + k;
  throw Error("unknown service setting '" + name + "': expected one of " + known);
}

ServiceSettings parse_service_settings(std::istream& in, const std::string& source_name) {
  return ConfParser(in, source_name).parse(nullptr);
}

ServiceSettings read_service_settings(const std::string& path) {
  std::ifstream in = open_conf(path);
  return parse_service_settings(in, path);
}

TofaConf parse_tofa_conf(std::istream& in, const std::string& source_name) {
  std::string topology_text;
  ServiceSettings settings = ConfParser(in, source_name).parse(&topology_text);
  std::istringstream topology_in(topology_text);
  return TofaConf{settings, parse_topology(topology_in, source_name)};
}

TofaConf read_tofa_conf(const std::string& path) {
  std::ifstream in = open_conf(path);
  return parse_tofa_conf(in, path);
}

}  // namespace tofa::service

namespace tofa {

Topology load_topology(const std::string& spec_or_path) {
  if (spec_or_path.rfind("torus:", 0) == 0 || spec_or_path.rfind("mesh:", 0) == 0)
    return Topology::from_spec(spec_or_path);
  return service::read_tofa_conf(spec_or_path).topology;
}

}  // namespace tofa
