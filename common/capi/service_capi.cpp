// The C API of the service, responder and clients (tofa_service.h): every
// entry point converts exceptions into TOFA_ERROR + message.
#include "tofa_service.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "base/printable.hpp"
#include "capi_guard.hpp"
#include "service/client.hpp"
#include "service/placement.hpp"
#include "service/responder.hpp"
#include "service/service.hpp"
#include "service/tofa_conf.hpp"

namespace {

using tofa::capi::guarded;
using tofa::capi::require;

using namespace tofa::service;

/// Above any task count a graph may have (GraphLimits::max_tasks): larger
/// limits from C mean "no limit" and stay clear of int overflow.
constexpr unsigned kMaxTasks = 1U << 30;

std::string text_or_empty(const char* text) { return text ? text : ""; }

/// A malloc'ed copy for the caller to free().
char* malloc_copy(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  if (copy == nullptr) throw std::bad_alloc();
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

Logger logger_of(tofa_log_fn log) {
  if (log == nullptr) return Logger();
  return [log](int level, const std::string& message) {
    log(level, tofa::printable(message).c_str());
  };
}

void copy_metrics(const tofa::PlacementMetrics& m, tofa_metrics_t* out) {
  if (out == nullptr) return;
  out->tasks = m.tasks;
  out->nodes_used = m.nodes_used;
  out->max_hops = m.max_hops;
  out->links_used = m.links_used;
  out->total_bytes = m.total_bytes;
  out->hop_bytes = m.hop_bytes;
  out->average_hops = m.average_hops;
  out->hop_variance = m.hop_variance;
  out->dilation = m.dilation;
  out->max_link_load = m.max_link_load;
  out->abort_probability = m.abort_probability;
}

// The process-wide singletons. Callers hold a shared_ptr copy while they use
// one, so a concurrent stop() never frees it under them.
std::mutex g_mutex;
std::shared_ptr<Service> g_service;
std::shared_ptr<Responder> g_responder;

std::shared_ptr<Service> running_service() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_service) throw tofa::Error("the TOFA service is not running");
  return g_service;
}

ClientContext context_of(const char* conf_path, const char* host, const char* munge_socket) {
  return client_context(text_or_empty(conf_path), text_or_empty(host), text_or_empty(munge_socket));
}

/// The context of srun's, sbatch's and salloc's calls: they wait for a
/// restarting or busy service (ServiceWait), as for slurmctld.
ClientContext waiting_context_of(const char* conf_path, const char* host, const char* munge_socket) {
  ClientContext context = context_of(conf_path, host, munge_socket);
  context.wait_for_service = true;
  return context;
}

/// The task limits of a C candidate array, in its order (`caller` names
/// the function in errors).
tofa::TaskLimits listed_limits(const ServiceState& state, const tofa_candidate_t* candidates,
                               int count, const char* caller) {
  if (count < 0 || (candidates == nullptr && count > 0))
    throw tofa::Error(std::string(caller) + ": NULL candidates or a negative count");
  std::vector<NamedCandidate> named(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    if (candidates[i].name == nullptr)
      throw tofa::Error(std::string(caller) + ": a candidate without a name");
    named[i] = {candidates[i].name, static_cast<int>(std::min(candidates[i].min_tasks, kMaxTasks)),
                static_cast<int>(std::min(candidates[i].max_tasks, kMaxTasks))};
  }
  return candidate_limits(state.topology(), named);
}

}  // namespace

extern "C" {

int tofa_conf_get(const char* conf_path, const char* key, char* value, size_t value_size,
                  char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(conf_path && key && value && value_size > 0, "tofa_conf_get: NULL argument");
    const std::string text = setting_text(read_service_settings(conf_path), key);
    if (text.size() + 1 > value_size)
      throw tofa::Error(std::string(key) + ": value of " + std::to_string(text.size()) +
                        " bytes does not fit in " + std::to_string(value_size));
    std::memcpy(value, text.c_str(), text.size() + 1);
  });
}

int tofa_service_start(const char* conf_path, const char* state_dir, unsigned admin_uid,
                       const char* munge_socket, tofa_log_fn log, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(conf_path != nullptr, "tofa_service_start: NULL conf_path");
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_service) throw tofa::Error("the TOFA service is already running");
    ServiceOptions options;
    options.conf_path = conf_path;
    options.state_dir = text_or_empty(state_dir);
    options.admin_uid = admin_uid;
    options.munge_socket = text_or_empty(munge_socket);
    options.log = logger_of(log);
    g_service = std::make_shared<Service>(options);
  });
}

int tofa_service_set_nodes(const tofa_node_address_t* nodes, int count, char* err,
                           size_t err_size) {
  return guarded(err, err_size, [&] {
    require(count >= 0 && (nodes != nullptr || count == 0), "tofa_service_set_nodes: bad arguments");
    std::vector<NodeAddress> list;
    for (int i = 0; i < count; ++i) {
      require(nodes[i].name != nullptr, "tofa_service_set_nodes: node without a name");
      list.push_back({nodes[i].name, text_or_empty(nodes[i].address), nodes[i].slurmd_port});
    }
    running_service()->state().set_nodes(std::move(list));
  });
}

void tofa_service_stop(void) {
  try {
    std::shared_ptr<Service> service;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      service.swap(g_service);
    }
    if (service) service->stop();
  } catch (...) {  // stop() logs its own failures; nothing may escape into C
  }
}

int tofa_service_running(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_service ? 1 : 0;
}

double tofa_service_outage_threshold(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_service ? g_service->state().settings().outage_threshold : 1.0;
}

tofa_choice_t tofa_service_choose_healthy_first(int (*choose)(int with_failing, int* left_out,
                                                              void* arg),
                                                void* arg, char* note, size_t note_size) {
  if (note_size > 0) note[0] = '\0';
  int left_out = 0;
  if (choose(0, &left_out, arg) == TOFA_OK) return TOFA_CHOICE_MADE;
  if (left_out <= 0) return TOFA_CHOICE_NONE;
  double threshold = 1.0;
  bool waits = true;
  {  // not held while `choose` runs: it calls into this API
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_service) {
      threshold = g_service->state().settings().outage_threshold;
      waits = g_service->state().settings().only_failing_fit_waits;
    }
  }
  if (waits) {
    std::snprintf(note, note_size,
                  "waits: it does not fit without the %d candidate node(s) above "
                  "OutageThreshold=%g",
                  left_out, threshold);
    return TOFA_CHOICE_WAITS;
  }
  std::snprintf(note, note_size,
                "may use %d node(s) above OutageThreshold=%g (OnlyFailingNodesFit=use)", left_out,
                threshold);
  return choose(1, &left_out, arg) == TOFA_OK ? TOFA_CHOICE_MADE : TOFA_CHOICE_NONE;
}

int tofa_service_port(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_service ? g_service->port() : -1;
}

int tofa_service_graph_info(const char* graph_id, unsigned uid, int* task_count, char* err,
                            size_t err_size) {
  return guarded(err, err_size, [&] {
    require(graph_id != nullptr, "tofa_service_graph_info: NULL graph_id");
    const int tasks = running_service()->state().graph_task_count(graph_id, uid);
    if (task_count) *task_count = tasks;
  });
}

int tofa_service_place_job(unsigned job_id, unsigned uid, const char* graph_id,
                           const char* strategy, const char* candidates, int slots_per_node,
                           int min_nodes, int max_nodes, const char* parameters,
                           char** placement, tofa_metrics_t* metrics, char* err,
                           size_t err_size) {
  return guarded(err, err_size, [&] {
    require(graph_id != nullptr && placement != nullptr, "tofa_service_place_job: NULL argument");
    *placement = nullptr;
    PlaceRequest request;
    request.uid = uid;
    request.graph_id = graph_id;
    if (job_id != 0) request.job = job_id;
    request.from_slurmctld = true;
    request.strategy = text_or_empty(strategy);
    request.candidates = text_or_empty(candidates);
    request.slots_per_node = slots_per_node;
    request.min_nodes = min_nodes;
    request.max_nodes = max_nodes;
    request.parameters = text_or_empty(parameters);
    const PlacementRecord record = running_service()->state().place(request);
    char* text = malloc_copy(join_nodes(record.nodes));
    copy_metrics(record.metrics, metrics);
    *placement = text;
  });
}

int tofa_service_choose_nodes(unsigned job_id, unsigned uid, const char* graph_id,
                              const char* candidates, int min_nodes, int max_nodes,
                              char** placement, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(graph_id != nullptr && placement != nullptr,
            "tofa_service_choose_nodes: NULL argument");
    *placement = nullptr;
    PlaceRequest request;
    request.uid = uid;
    request.graph_id = graph_id;
    request.job = job_id;
    request.from_slurmctld = true;
    request.candidates = text_or_empty(candidates);
    request.min_nodes = min_nodes;
    request.max_nodes = max_nodes;
    *placement = malloc_copy(join_nodes(running_service()->state().choose_nodes(request).nodes));
  });
}

int tofa_service_choose_nodes_from(unsigned job_id, unsigned uid, const char* graph_id,
                                   const tofa_candidate_t* candidates, int count,
                                   int min_nodes, int max_nodes, unsigned* tasks, char* err,
                                   size_t err_size) {
  return guarded(err, err_size, [&] {
    require(graph_id != nullptr && tasks != nullptr,
            "tofa_service_choose_nodes_from: NULL argument");
    ServiceState& state = running_service()->state();
    PlaceRequest request;
    request.uid = uid;
    request.graph_id = graph_id;
    request.job = job_id;
    request.from_slurmctld = true;
    request.min_nodes = min_nodes;
    request.max_nodes = max_nodes;
    const tofa::TaskLimits limits = listed_limits(state, candidates, count, "tofa_service_choose_nodes_from");
    tofa::Placement ids;
    state.choose_nodes(request, limits, &ids);
    // Tasks per node, in a table kept per thread and cleared after use: a
    // fresh one per call is 256 KB to zero at 65,536 nodes.
    thread_local std::vector<unsigned> on_node;
    on_node.resize(static_cast<std::size_t>(state.topology().node_count()), 0);
    for (int node : ids) ++on_node[node];
    // limits.nodes[i] is candidates[i]'s node: candidate_limits keeps them all, in order.
    for (int i = 0; i < count; ++i) tasks[i] = on_node[limits.nodes[i]];
    for (int node : ids) on_node[node] = 0;
  });
}

int tofa_service_map_later(unsigned job_id, const tofa_candidate_t* allocation, int count,
                           const char* strategy, const char* parameters, char* err,
                           size_t err_size) {
  return guarded(err, err_size, [&] {
    ServiceState& state = running_service()->state();
    state.map_later(job_id, listed_limits(state, allocation, count, "tofa_service_map_later"),
                    text_or_empty(strategy), text_or_empty(parameters));
  });
}

void tofa_service_wait_for_mappings(void) {
  try {
    if (tofa_service_running()) running_service()->state().wait_for_mappings();
  } catch (...) {
  }
}

int tofa_service_placement_pending(unsigned job_id) {
  try {
    return running_service()->state().job_placement(job_id, std::nullopt).pending ? 1 : 0;
  } catch (...) {
    return -1;
  }
}

int tofa_service_move_placement(unsigned from, unsigned to, char* err, size_t err_size) {
  return guarded(err, err_size, [&] { running_service()->state().move_placement(from, to); });
}

int tofa_service_forget_job(unsigned job_id, char* err, size_t err_size) {
  return guarded(err, err_size, [&] { running_service()->state().forget_placement(job_id); });
}

int tofa_service_job_placement(unsigned job_id, char** placement, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(placement != nullptr, "tofa_service_job_placement: NULL placement");
    *placement = nullptr;
    const PlacementRecord record = running_service()->state().job_placement(job_id, std::nullopt);
    *placement = malloc_copy(join_nodes(record.nodes));
  });
}

int tofa_service_node_outage(const char* node_name, double* probability, char* err,
                             size_t err_size) {
  return guarded(err, err_size, [&] {
    require(node_name != nullptr && probability != nullptr,
            "tofa_service_node_outage: NULL argument");
    *probability = running_service()->state().node_outage(node_name);
  });
}

int tofa_service_set_referenced_graphs(const char* const* ids, int count, char* err,
                                       size_t err_size) {
  return guarded(err, err_size, [&] {
    require(count >= 0 && (ids != nullptr || count == 0),
            "tofa_service_set_referenced_graphs: bad arguments");
    std::set<std::string> referenced;
    for (int i = 0; i < count; ++i)
      if (ids[i]) referenced.insert(ids[i]);
    running_service()->state().set_referenced_graphs(std::move(referenced));
  });
}

int tofa_service_set_running_jobs(const unsigned* jobs, int count, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(count >= 0 && (jobs != nullptr || count == 0),
            "tofa_service_set_running_jobs: bad arguments");
    running_service()->state().set_running_jobs(std::vector<unsigned>(jobs, jobs + count));
  });
}

int tofa_service_failing_nodes(char** names, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(names != nullptr, "tofa_service_failing_nodes: NULL argument");
    std::string list;
    for (const std::string& name : running_service()->state().failing_nodes())
      list += (list.empty() ? "" : ",") + name;
    *names = malloc_copy(list);
  });
}

int tofa_service_set_outages(const char* const* nodes, const double* probabilities, int count,
                             char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(count >= 0 && (count == 0 || (nodes && probabilities)),
            "tofa_service_set_outages: bad arguments");
    std::vector<std::pair<std::string, double>> outages;
    for (int i = 0; i < count; ++i) {
      require(nodes[i] != nullptr && probabilities[i] >= 0 && probabilities[i] <= 1,
              "tofa_service_set_outages: a node name is NULL or a probability is outside 0..1");
      outages.emplace_back(nodes[i], probabilities[i]);
    }
    running_service()->state().set_outages(0, outages);
  });
}

int tofa_service_heartbeat_stats(long* rounds, double* last_round_seconds, long* sessions,
                                 char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    const HeartbeatLoop& heartbeats = running_service()->heartbeats();
    if (rounds) *rounds = heartbeats.rounds();
    if (last_round_seconds) *last_round_seconds = heartbeats.last_round_seconds();
    if (sessions) *sessions = static_cast<long>(heartbeats.sessions());
  });
}

int tofa_responder_start(const char* conf_path, const char* node_name, const char* bind_address,
                         int port, const char* munge_socket, unsigned service_uid,
                         tofa_log_fn log, char* err, size_t err_size) {
  return guarded(err, err_size, [&] {
    require(node_name != nullptr && *node_name != '\0', "tofa_responder_start: no node name");
    require(port >= 0 && port <= 65535, "tofa_responder_start: bad port");
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_responder) throw tofa::Error("the TOFA responder is already running");
    ResponderOptions options;
    options.node_names = {node_name};
    options.bind_address = text_or_empty(bind_address);
    options.port = port;
    options.munge_socket = text_or_empty(munge_socket);
    options.service_uid = service_uid;
    if (conf_path && *conf_path) {
      const ServiceSettings settings = read_service_settings(conf_path);
      options.max_connections = settings.max_connections;
      options.max_connections_per_peer = settings.max_connections_per_peer;
      options.header_timeout = settings.header_timeout;
      options.sessions = settings.heartbeat_sessions;
    }
    g_responder = std::make_shared<Responder>(options, logger_of(log));
  });
}

void tofa_responder_stop(void) {
  try {
    std::shared_ptr<Responder> responder;
    {
      std::lock_guard<std::mutex> lock(g_mutex);
      responder.swap(g_responder);
    }
    if (responder) responder->stop();
  } catch (...) {
  }
}

int tofa_responder_running(void) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_responder ? 1 : 0;
}

int tofa_client_request(const char* conf_path, const char* host, const char* munge_socket,
                        const char* request, size_t length, char** reply, char* err,
                        size_t err_size) {
  return guarded(err, err_size, [&] {
    require(request != nullptr && reply != nullptr, "tofa_client_request: NULL argument");
    *reply = nullptr;
    const std::string text =
        call_raw(context_of(conf_path, host, munge_socket), std::string(request, length));
    *reply = malloc_copy(text);
  });
}

int tofa_client_upload_graph(const char* conf_path, const char* host, const char* munge_socket,
                             const char* graph_path, char** graph_id, int* task_count, char* err,
                             size_t err_size) {
  return guarded(err, err_size, [&] {
    require(graph_path != nullptr && graph_id != nullptr,
            "tofa_client_upload_graph: NULL argument");
    *graph_id = nullptr;
    const UploadedGraph graph =
        upload_graph_file(waiting_context_of(conf_path, host, munge_socket), graph_path);
    *graph_id = malloc_copy(graph.id);
    if (task_count) *task_count = graph.task_count;
  });
}

int tofa_client_upload_pattern(const char* conf_path, const char* host, const char* munge_socket,
                               const char* spec, char** graph_id, int* task_count, char* err,
                               size_t err_size) {
  return guarded(err, err_size, [&] {
    require(spec != nullptr && graph_id != nullptr, "tofa_client_upload_pattern: NULL argument");
    *graph_id = nullptr;
    const UploadedGraph graph =
        upload_pattern(waiting_context_of(conf_path, host, munge_socket), spec);
    *graph_id = malloc_copy(graph.id);
    if (task_count) *task_count = graph.task_count;
  });
}

int tofa_client_job_placement(const char* conf_path, const char* host, const char* munge_socket,
                              unsigned job_id, char** placement, char** graph_id, char* err,
                              size_t err_size) {
  return guarded(err, err_size, [&] {
    require(placement != nullptr, "tofa_client_job_placement: NULL placement");
    *placement = nullptr;
    if (graph_id) *graph_id = nullptr;
    const JobPlacement found =
        fetch_job_placement(waiting_context_of(conf_path, host, munge_socket), job_id);
    *placement = malloc_copy(join_nodes(found.nodes));
    if (graph_id) *graph_id = malloc_copy(found.graph_id);
  });
}

int tofa_client_place(const char* conf_path, const char* host, const char* munge_socket,
                      const tofa_place_request_t* request, char** placement, char* err,
                      size_t err_size) {
  return guarded(err, err_size, [&] {
    require(request != nullptr && request->graph_id != nullptr && placement != nullptr,
            "tofa_client_place: NULL argument");
    *placement = nullptr;
    PlaceRequest place;
    place.graph_id = request->graph_id;
    if (request->job_id != 0) place.job = request->job_id;
    place.tasks = request->task_count;
    place.strategy = text_or_empty(request->strategy);
    place.candidates = text_or_empty(request->candidates);
    place.slots_per_node = request->slots_per_node;
    place.parameters = text_or_empty(request->parameters);
    place.min_nodes = request->min_nodes;
    place.max_nodes = request->max_nodes;
    place.claim = request->direct_srun != 0;
    *placement = malloc_copy(
        join_nodes(request_placement(waiting_context_of(conf_path, host, munge_socket), place)));
  });
}

int tofa_client_record_placement(const char* conf_path, const char* host,
                                 const char* munge_socket, const char* graph_id, unsigned job_id,
                                 const char* strategy, const char* placement, char* err,
                                 size_t err_size) {
  return guarded(err, err_size, [&] {
    require(graph_id != nullptr && placement != nullptr && job_id != 0,
            "tofa_client_record_placement: NULL argument or job 0");
    record_placement(waiting_context_of(conf_path, host, munge_socket), graph_id, job_id,
                     text_or_empty(strategy), placement);
  });
}

}  // extern "C"
