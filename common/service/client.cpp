#include "service/client.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>

#include "base/error.hpp"
#include "graph/graph.hpp"
#include "graph/patterns/patterns.hpp"
#include "net/client.hpp"
#include "net/socket_io.hpp"
#include "service/placement_store.hpp"
#include "service/state_files.hpp"

namespace tofa::service {

ClientContext client_context(const std::string& conf_path, const std::string& host,
                             const std::string& munge_socket) {
  ClientContext context;
  context.munge_socket = munge_socket;
  if (!conf_path.empty()) context.settings = read_service_settings(conf_path);
  context.host = host.empty() ? context.settings.service_host : host;
  context.port = context.settings.service_port;
  const std::size_t colon = context.host.rfind(':');
  const bool has_port = colon != std::string::npos && colon + 1 < context.host.size() &&
                        context.host.find(':') == colon &&
                        context.host.find_first_not_of("0123456789", colon + 1) == std::string::npos;
  if (has_port) {
    const std::string digits = context.host.substr(colon + 1);
    context.port = digits.size() <= 5 ? std::stoi(digits) : 0;
    if (context.port < 1 || context.port > 65535)
      throw Error("bad port in host '" + context.host + "'");
    context.host.erase(colon);
  } else if (conf_path.empty()) {
    throw Error("no tofa.conf given and host '" + host + "' names no port");
  }
  if (context.host.empty())
    throw Error("no service host: set ServiceHost in " + conf_path + " or give a host");
  return context;
}

std::string call_raw(const ClientContext& context, const std::string& request) {
  net::ClientOptions options;
  options.munge_socket = context.munge_socket;
  options.timeout = std::chrono::milliseconds(
      static_cast<long long>(context.settings.request_timeout * 1000));
  options.max_body = static_cast<std::size_t>(context.settings.max_graph_bytes) + kMaxHeaderBytes;
  // While slurmctld restarts, the service refuses connections; while the
  // same user's previous placement runs, it answers "busy". Both pass: try
  // again with growing pauses for ServiceWait seconds, as Slurm's own
  // clients wait for slurmctld.
  using Clock = std::chrono::steady_clock;
  const double wait = context.wait_for_service ? std::min(context.settings.service_wait, 1e6) : 0;
  const Clock::time_point give_up =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(wait * 1000));
  std::chrono::milliseconds pause{100};
  std::string reply;
  for (;;) {
    bool again = false;
    try {
      reply = net::request(context.host, context.port, request, options).body;
      again = reply.compare(0, 11, "ERROR busy:") == 0;
    } catch (const net::ConnectError&) {
      if (Clock::now() + pause >= give_up) throw;
      again = true;
    }
    if (!again || Clock::now() + pause >= give_up) break;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(2000));
  }
  if (reply.compare(0, 6, "ERROR ") == 0) throw Error(reply.substr(6));
  if (reply != "OK" && reply.compare(0, 3, "OK ") != 0 && reply.compare(0, 3, "OK\n") != 0)
    throw Error("unexpected reply from the service: '" + reply.substr(0, 80) + "'");
  return reply;
}

Message call(const ClientContext& context, const std::string& request) {
  return parse_message(call_raw(context, request));
}

UploadedGraph upload_graph_file(const ClientContext& context, const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw Error("cannot read " + path + ": " + std::strerror(errno));
  if (info.st_size > context.settings.max_graph_bytes)
    throw Error(path + ": " + std::to_string(info.st_size) + " bytes exceed the limit of " +
                std::to_string(context.settings.max_graph_bytes) +
                " bytes (MaxGraphBytes in tofa.conf)");
  std::string text;
  if (!read_file(path, text, context.settings.max_graph_bytes))
    throw Error("cannot read " + path + ": " + std::strerror(ENOENT));
  return upload_graph_text(context, path, text);
}

UploadedGraph upload_graph_text(const ClientContext& context, const std::string& name,
                                const std::string& text) {
  const Message reply = call(context, format_message("UPLOAD_GRAPH", {{"name", name}}, text));
  UploadedGraph graph;
  graph.id = reply.field("id");
  graph.task_count = std::stoi(reply.field("tasks"));
  return graph;
}

UploadedGraph upload_pattern(const ClientContext& context, const std::string& spec) {
  std::ostringstream text;
  write_matrix_market(text, pattern_graph(spec));
  const std::string name = "pattern:" + spec;
  if (static_cast<long long>(text.str().size()) > context.settings.max_graph_bytes)
    throw Error(name + ": its graph takes " + std::to_string(text.str().size()) +
                " bytes, more than the limit of " + std::to_string(context.settings.max_graph_bytes) +
                " bytes (MaxGraphBytes in tofa.conf)");
  return upload_graph_text(context, name, text.str());
}

JobPlacement fetch_job_placement(const ClientContext& context, unsigned job) {
  // The scheduler recorded the job's node choice; the job's strategy may
  // still be ordering its tasks on them (a reply says pending=yes): ask
  // again with growing pauses for PlacementWait seconds, then take what is
  // recorded.
  using Clock = std::chrono::steady_clock;
  const Clock::time_point give_up =
      Clock::now() + seconds_to_ms(std::min(context.settings.placement_wait, 1e6));
  std::chrono::milliseconds pause{20};
  for (;;) {
    const bool last = Clock::now() + pause >= give_up;
    std::vector<std::pair<std::string, std::string>> fields = {{"job", std::to_string(job)}};
    if (last) fields.emplace_back("take", "yes");
    const Message reply = call(context, format_message("PLACEMENT", fields));
    if (last || reply.field_or("pending", "no") != "yes")
      return JobPlacement{reply.field_or("graph", ""), split_nodes(reply.field("nodes"))};
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

std::vector<std::string> request_placement(const ClientContext& context,
                                           const PlaceRequest& request) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"graph", request.graph_id},
      {"job", request.job ? std::to_string(*request.job) : "none"},
      {"tasks", std::to_string(request.tasks)},
      {"slots", std::to_string(request.slots_per_node)}};
  if (!request.strategy.empty()) fields.emplace_back("strategy", request.strategy);
  if (!request.candidates.empty()) fields.emplace_back("candidates", request.candidates);
  if (!request.parameters.empty()) fields.emplace_back("params", request.parameters);
  if (request.min_nodes > 0 || request.max_nodes > 0)
    fields.emplace_back("nodes", std::to_string(request.min_nodes) + "-" +
                                     std::to_string(request.max_nodes));
  if (request.claim) fields.emplace_back("claim", "yes");
  const Message reply = call(context, format_message("PLACE", fields));
  return split_nodes(reply.field("nodes"));
}

std::vector<std::string> record_placement(const ClientContext& context,
                                          const std::string& graph_id, unsigned job,
                                          const std::string& strategy,
                                          const std::string& nodes) {
  std::vector<std::pair<std::string, std::string>> fields = {
      {"graph", graph_id}, {"job", std::to_string(job)}, {"nodes", nodes}};
  if (!strategy.empty()) fields.emplace_back("strategy", strategy);
  const Message reply = call(context, format_message("RECORD", fields));
  return split_nodes(reply.field("nodes"));
}

}  // namespace tofa::service
