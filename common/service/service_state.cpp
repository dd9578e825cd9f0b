#include "service/service_state.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "base/error.hpp"
#include "map/portfolio/strategies.hpp"
#include "metrics/interference.hpp"
#include "net/sha256.hpp"
#include "service/graph_file.hpp"
#include "service/placement.hpp"
#include "service/state_files.hpp"
#include "service/state_text.hpp"
#include "service/work_limits.hpp"

namespace tofa::service {

namespace {

std::vector<int> snake_ranks(const Topology& topology) {
  const std::vector<int> order = snake_order(topology);
  std::vector<int> rank(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<int>(i);
  return rank;
}

}  // namespace

ServiceState::ServiceState(ServiceSettings settings, Topology topology, uid_t admin_uid,
                           std::string state_dir, Logger log)
    : settings_(std::move(settings)),
      topology_(std::move(topology)),
      snake_rank_(snake_ranks(topology_)),
      admin_uid_(admin_uid),
      state_dir_(std::move(state_dir)),
      log_(std::move(log)),
      placements_(settings_.placement_retention) {
  if (!state_dir_.empty()) {
    make_directory(state_dir_);
    make_directory(path(kGraphDirectory));
    load();
  }
  // Built here, not in the first TOFA job's scheduling pass.
  health_.outage_vector(topology_, settings_.outage_model);
}

void ServiceState::log(int level, const std::string& message) const {
  if (log_) log_(level, message);
}

std::string ServiceState::graph_path(const std::string& id) const {
  return path(std::string(kGraphDirectory) + "/" + id + ".graph");
}

// ------------------------------------------------------------------ loading

template <typename Parse>
void ServiceState::load_file(const char* file, Parse parse) {
  const std::string name = path(file);
  LoadNotes notes;
  try {
    std::string text;
    if (!read_file(name, text, 1LL << 30)) return;
    parse(text, name, notes);
  } catch (const NewerStateFile& e) {
    throw Error(std::string(e.what()) +
                "; not starting, so that the file is not overwritten: run the tofa that wrote "
                "it, or move it away");
  } catch (const Error& e) {  // out of memory goes on up: the file stays
    log(0, std::string("state file ") + e.what());
    try {
      log(0, "moved corrupt state file " + name + " to " + move_aside(name));
    } catch (const std::exception& moved) {
      log(0, moved.what());
    }
  }
  for (const std::string& note : notes) log(0, "state file " + note);
}

void ServiceState::load() {
  for (const std::string& directory : {state_dir_, path(kGraphDirectory)})
    for (const std::string& name : remove_temporaries(directory))
      log(1, "removed " + directory + "/" + name + ", left by a write a crash interrupted");
  load_file(kNodesFile, [&](const std::string& text, const std::string& name, LoadNotes& notes) {
    health_ = NodeHealth::parse(text, name, &notes);
  });
  load_file(kPlacementsFile,
            [&](const std::string& text, const std::string& name, LoadNotes& notes) {
              placements_ =
                  PlacementStore::parse(text, name, settings_.placement_retention, &notes);
            });
  load_graphs();
  log(1, "restored " + std::to_string(graphs_.size()) + " graph(s), " +
             std::to_string(placements_.size()) + " placement(s), " +
             std::to_string(health_.records().size()) + " node histories from " + state_dir_);
}

std::shared_ptr<const CommGraph> ServiceState::read_graph_file(const GraphRecord& record) const {
  const std::string file = graph_path(record.id);
  std::string text;
  if (!read_file(file, text, settings_.max_graph_bytes + 100))  // + the header line
    throw Error("cannot read " + file + ": missing");
  std::istringstream in(uploaded_text(text, record.sha256, file));
  auto graph = std::make_shared<const CommGraph>(parse_graph(in, record.name));
  if (graph->task_count() != record.task_count)
    throw Error(file + ": " + std::to_string(graph->task_count()) + " tasks, the index says " +
                std::to_string(record.task_count));
  return graph;
}

std::shared_ptr<const CommGraph> ServiceState::restored(const std::string& id,
                                                        std::shared_ptr<const CommGraph> graph) {
  if (graph) return graph;
  GraphRecord record;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const GraphRecord* found = graphs_.find(id);
    if (found == nullptr) throw Error("unknown graph id " + id);
    if (found->graph) return found->graph;  // another request restored it
    record = *found;
  }
  try {
    graph = read_graph_file(record);
  } catch (const std::exception& e) {
    const std::string file = graph_path(id);
    log(0, "graph " + id + " dropped: " + e.what());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (graphs_.erase(id)) ++graph_changes_;
    }
    save_graph_index();
    try {
      if (access(file.c_str(), F_OK) == 0)
        log(0, "moved corrupt graph file " + file + " to " + move_aside(file));
    } catch (const std::exception& moved) {
      log(0, moved.what());
    }
    throw Error("graph " + id + " could not be restored after a restart (see the slurmctld "
                "log): upload it again");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  graphs_.set_graph(id, graph);
  return graph;
}

/// The index only: each graph is parsed when a request first needs it. A
/// file written by a newer tofa stops the start here (its first line says).
void ServiceState::load_graphs() {
  std::vector<GraphRecord> records;
  long long next = 1;
  load_file(kGraphIndexFile,
            [&](const std::string& text, const std::string& name, LoadNotes& notes) {
              records = GraphStore::parse_index(text, name, next, &notes);
            });
  graphs_.set_next(next);
  bool dropped = false;
  for (GraphRecord& record : records) {
    const std::string file = graph_path(record.id);
    std::ifstream in(file);
    std::string first;
    if (!in || !std::getline(in, first)) {
      dropped = true;
      log(0, "graph " + record.id + " dropped: cannot read " + file);
      continue;
    }
    const std::optional<int> version = state_header_version(first, "graph");
    if (version && *version > kStateVersion)
      throw Error(file + ": format version " + std::to_string(*version) +
                  ", this tofa reads versions up to " + std::to_string(kStateVersion) +
                  "; not starting, so that the file is not overwritten: run the tofa that "
                  "wrote it, or move it away");
    graphs_.insert(std::move(record));
  }
  if (dropped) save_graph_index();
}

bool ServiceState::persist(const char* file, const std::function<std::string()>& snapshot,
                           std::string* why) {
  return persist_built(file, [&] { return [text = snapshot()] { return text; }; }, why);
}

bool ServiceState::persist_built(const char* file,
                                 const std::function<std::function<std::string()>()>& capture,
                                 std::string* why) {
  if (state_dir_.empty()) return true;
  try {
    std::lock_guard<std::mutex> save(save_mutex_);
    std::function<std::string()> build;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      build = capture();
    }
    write_file_atomically(path(file), build());
    return true;
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    log(0, std::string("cannot save state: ") + e.what());
  } catch (...) {
    if (why) *why = "unknown error";
    log(0, std::string("cannot save state: unknown error writing ") + file);
  }
  return false;
}

void ServiceState::persist_or_throw(const char* file,
                                    const std::function<std::string()>& snapshot,
                                    const std::string& what) {
  std::string why;
  if (!persist(file, snapshot, &why)) throw Error(what + ": " + why);
}

bool ServiceState::save_graph_index(std::string* why) {
  std::uint64_t covered = 0;
  const bool saved = persist(kGraphIndexFile,
                             [&] {
                               covered = graph_changes_;
                               return graphs_.index_text();
                             },
                             why);
  if (saved) {
    std::lock_guard<std::mutex> lock(mutex_);
    graph_changes_saved_ = std::max(graph_changes_saved_, covered);
  }
  return saved;
}

void ServiceState::save_nodes() {
  persist(kNodesFile, [&] { return health_.to_text(); });
}

void ServiceState::save_all() {
  save_nodes();
  persist(kPlacementsFile, [&] { return placements_.to_text(); });
  save_graph_index();
}

// ------------------------------------------------------------------- graphs

std::optional<GraphUpload> ServiceState::existing_upload(uid_t uid, const std::string& digest) {
  GraphUpload upload;
  bool index_behind = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const GraphRecord* same = graphs_.find_by_digest(uid, digest);
    if (same == nullptr) return std::nullopt;
    graphs_.touch(same->id, now_seconds());
    upload = GraphUpload{same->id, same->task_count, true};
    index_behind = graph_changes_saved_ < graph_changes_;
  }
  std::string why;
  if (index_behind && !save_graph_index(&why))
    throw Error("graph " + upload.id + " not saved: " + why);
  return upload;
}

bool ServiceState::room_for_graph_of(uid_t uid) const {
  return graphs_.count_of(uid) < settings_.max_graphs_per_user ||
         graphs_.least_recently_used(uid, referenced_graphs_, evictable_before_).has_value();
}

std::string ServiceState::quota_full_text() const {
  return "graph quota reached: all your " + std::to_string(settings_.max_graphs_per_user) +
         " graphs are used by pending or running jobs or were used in the last " +
         std::to_string(static_cast<int>(kReferenceGrace)) +
         " s (MaxGraphsPerUser in tofa.conf); a new one can be stored once one of those jobs "
         "ends";
}

void ServiceState::set_referenced_graphs(std::set<std::string> ids, double taken_at) {
  std::lock_guard<std::mutex> lock(mutex_);
  referenced_graphs_ = std::move(ids);
  evictable_before_ = taken_at - kReferenceGrace;
}

void ServiceState::set_running_jobs(const std::vector<unsigned>& jobs) {
  struct Running {
    unsigned job;
    std::string graph_id;
    std::vector<std::string> nodes;
    std::shared_ptr<const CommGraph> graph;
  };
  std::vector<Running> running;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (unsigned job : jobs) {
      const PlacementRecord* record = placements_.find(job);
      if (record == nullptr) continue;
      const GraphRecord* graph = graphs_.find(record->graph_id);
      if (graph == nullptr) continue;
      running.push_back({job, record->graph_id, record->nodes, graph->graph});
    }
  }
  std::vector<RunningLinks::Job> counted;
  for (Running& r : running) {
    RunningLinks::Job job{r.job, {}, nullptr};
    for (const std::string& name : r.nodes) job.placement.push_back(topology_.node_by_name(name));
    if (std::count(job.placement.begin(), job.placement.end(), -1)) continue;
    try {
      job.graph = restored(r.graph_id, std::move(r.graph));
    } catch (const std::exception&) {
      continue;  // its graph is gone (logged): its links are not known
    }
    if (job.graph->task_count() == static_cast<int>(job.placement.size())) counted.push_back(std::move(job));
  }
  running_links_.update(topology_, counted);
}

std::vector<ServiceState::LinkLoad> ServiceState::busiest_links(int top) const {
  // With LinkSharing=shared a link is listed once, with both directions' bytes.
  const bool shared = settings_.fault_cost.shared_links;
  std::vector<double> loads = running_links_.loads();
  if (shared && !loads.empty()) loads = both_ways(topology_, loads);
  const std::vector<int> jobs = running_links_.jobs_per_link(shared ? &topology_ : nullptr);
  std::vector<int> order;
  for (int l = 0; l < static_cast<int>(loads.size()); ++l)
    if (loads[l] > 0 && (!shared || l <= topology_.reverse_link_id(l))) order.push_back(l);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return loads[a] > loads[b]; });
  if (top > 0 && static_cast<int>(order.size()) > top) order.resize(top);
  std::vector<LinkLoad> out;
  for (int l : order) {
    const Link link = topology_.link_of(l);
    out.push_back({topology_.node_name(link.from), topology_.node_name(link.to), loads[l], jobs[l]});
  }
  return out;
}

std::optional<double> ServiceState::shared_traffic(unsigned job) const {
  const std::vector<std::pair<int, double>> own = running_links_.job_links(job);
  if (own.empty()) return std::nullopt;
  const std::vector<double> others = running_links_.loads(job);
  return shared_share(own, settings_.fault_cost.shared_links ? both_ways(topology_, others) : others);
}

GraphUpload ServiceState::upload_graph(uid_t uid, const std::string& name,
                                       const std::string& text) {
  const std::string shown = name.empty() ? "graph" : name;
  if (static_cast<long long>(text.size()) > settings_.max_graph_bytes)
    throw Error(shown + ": " + std::to_string(text.size()) +
                " bytes exceed the limit of " + std::to_string(settings_.max_graph_bytes) +
                " bytes (MaxGraphBytes in tofa.conf)");
  const std::string digest = net::to_hex(net::sha256(text));
  if (std::optional<GraphUpload> existing = existing_upload(uid, digest)) return *existing;
  std::string id;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!room_for_graph_of(uid)) throw Error(quota_full_text());
    id = graphs_.next_id();
  }

  std::istringstream in(text);
  GraphLimits limits;
  limits.max_tasks = settings_.max_graph_tasks;
  limits.tasks_source = "MaxGraphTasks in tofa.conf";
  limits.max_memory = settings_.max_graph_bytes;
  limits.memory_source = "MaxGraphBytes in tofa.conf";
  auto graph = std::make_shared<const CommGraph>(parse_graph(in, shown, GraphFormat::Auto, limits));
  if (!state_dir_.empty()) write_file_atomically(graph_path(id), graph_file_text(text));

  GraphRecord record;
  record.id = id;
  record.uid = uid;
  record.name = shown;
  record.task_count = graph->task_count();
  record.bytes = static_cast<long long>(text.size());
  record.sha256 = digest;
  record.uploaded = record.last_used = now_seconds();
  record.graph = std::move(graph);

  std::vector<std::string> evicted;
  bool stored = false;
  bool quota_full = false;  // concurrent uploads took the last evictable graph
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (graphs_.find_by_digest(uid, digest) == nullptr) {
      if (room_for_graph_of(uid)) {
        while (graphs_.count_of(uid) >= settings_.max_graphs_per_user) {
          const std::string victim = *graphs_.least_recently_used(uid, referenced_graphs_, evictable_before_);
          graphs_.erase(victim);
          evicted.push_back(victim);
        }
        graphs_.insert(record);
        ++graph_changes_;
        stored = true;
      } else {
        quota_full = true;
      }
    }
  }
  if (!stored) {  // a concurrent upload of the same text by the same user won
    if (!state_dir_.empty()) remove_file(graph_path(id));
    if (quota_full) throw Error(quota_full_text());
    if (std::optional<GraphUpload> existing = existing_upload(uid, digest)) return *existing;
    throw Error(shown + ": deleted while it was uploaded again; upload it once more");
  }
  std::string why;
  if (!save_graph_index(&why)) throw Error("graph " + id + " not saved: " + why);
  for (const std::string& victim : evicted) {
    log(1, "graph " + victim + " of uid " + std::to_string(uid) +
               " evicted (MaxGraphsPerUser=" + std::to_string(settings_.max_graphs_per_user) + ")");
    if (!state_dir_.empty()) {
      try {
        remove_file(graph_path(victim));
      } catch (const std::exception& e) {
        log(0, e.what());
      }
    }
  }
  log(1, "graph " + id + " (" + shown + ", " + std::to_string(record.task_count) +
             " tasks) uploaded by uid " + std::to_string(uid));
  return GraphUpload{id, record.task_count, false};
}

std::vector<GraphRecord> ServiceState::graphs(uid_t uid) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<GraphRecord> out;
  for (const GraphRecord* record : graphs_.visible(uid, is_admin(uid))) {
    out.push_back(*record);
    out.back().graph.reset();
  }
  return out;
}

int ServiceState::graph_task_count(const std::string& id, uid_t uid) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return graphs_.usable(id, uid, is_admin(uid)).task_count;
}

const GraphRecord& ServiceState::requested_graph(const PlaceRequest& request) {
  const GraphRecord& record = graphs_.usable(request.graph_id, request.uid, is_admin(request.uid));
  if (request.tasks != 0 && request.tasks != record.task_count)
    throw Error("graph " + record.id + " has " + std::to_string(record.task_count) +
                " tasks, the request asks for " + std::to_string(request.tasks));
  graphs_.touch(record.id, now_seconds());
  return record;
}

void ServiceState::delete_graph(const std::string& id, uid_t uid) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    graphs_.usable(id, uid, is_admin(uid));
    graphs_.erase(id);
    ++graph_changes_;
  }
  std::string why;
  if (!save_graph_index(&why)) throw Error("deletion of graph " + id + " not saved: " + why);
  if (!state_dir_.empty()) remove_file(graph_path(id));
}

// --------------------------------------------------------------- placements

PlacementRecord ServiceState::place(const PlaceRequest& request) {
  const std::string strategy =
      request.strategy.empty() ? settings_.default_strategy : request.strategy;
  const bool claims = request.claim && !request.job;
  // Users' requests over the network share the request threads: one
  // placement per user at a time (slurmctld's own and admins' unlimited).
  std::optional<UserSlots::Slot> slot;
  if (!request.from_slurmctld && !is_admin(request.uid)) {
    slot.emplace(user_slots_.take(request.uid));
    if (!slot->held()) {
      const std::string who = "uid " + std::to_string(request.uid);
      for (const std::string& line : refusal_log_.admit_as(
               who, "busy: " + who + " already has a placement running; refused another"))
        log(1, line);
      throw Error("busy: a placement of yours is still running; try again when it is done");
    }
  }
  check_work_limits(parse_parameters(request.parameters),
                    settings_.map_worker.program.empty() ? 0 : settings_.map_worker.seconds);
  std::shared_ptr<const CommGraph> graph;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const GraphRecord& record = requested_graph(request);
    if (request.job) {
      const PlacementRecord* existing = placements_.find(*request.job);
      if (existing && existing->uid != request.uid && !is_admin(request.uid) &&
          !request.from_slurmctld)
        throw Error("job " + std::to_string(*request.job) + " belongs to another user");
    }
    graph = record.graph;
  }
  graph = restored(request.graph_id, std::move(graph));
  PlacementInput input;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    input = placement_input(request, strategy, *graph, claims);
  }
  return keep(request, strategy, claims ? computed_with_claims(input, request.uid)
                                         : compute_placement(input));
}

PlacementInput ServiceState::placement_input(const PlaceRequest& request,
                                             const std::string& strategy, const CommGraph& graph,
                                             bool claims, double budget_share) const {
  PlacementInput input;
  input.outage = health_.outage_snapshot(topology_, settings_.outage_model);
  if (claims)
    for (int node = 0; node < topology_.node_count(); ++node)
      if ((*input.outage)[node] > settings_.outage_threshold)
        input.failing.push_back(topology_.node_name(node));
  input.topology = &topology_;
  input.graph = &graph;
  input.fault_cost = settings_.fault_cost;
  if (settings_.interference_weight > 0)
    running_links_.add_interference_to(input.fault_cost, topology_, settings_.interference_weight,
                                       request.job, &input.link_extra_patch);
  input.strategy = strategy;
  input.candidates = request.candidates;
  // More slots than tasks change nothing but the work of some strategies.
  input.slots_per_node = std::min(request.slots_per_node, graph.task_count());
  input.min_nodes = request.min_nodes;
  input.max_nodes = request.max_nodes;
  input.parameters = parse_parameters(request.parameters);
  if (strategy == "auto" && !input.parameters.count("budget"))
    input.parameters["budget"] = std::to_string(
        budget_share * scaled_placement_budget(settings_.placement_budget_ms, graph.task_count()));
  if (!settings_.map_worker.program.empty()) input.worker = &settings_.map_worker;
  return input;
}

// A direct srun avoids the tasks promised to other direct sruns. The
// placement is computed without a lock (a long one would make every other
// direct srun wait for it); if claims made meanwhile took room on the nodes
// it chose, it is computed again with them, a bounded number of times.
ComputedPlacement ServiceState::computed_with_claims(PlacementInput& input, uid_t uid) {
  ComputedPlacement computed;
  for (int attempt = 0;; ++attempt) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      input.promised = claims_.promised(now_seconds());
    }
    computed = compute_placement(input);
    std::lock_guard<std::mutex> lock(mutex_);
    const std::map<std::string, int> now_promised = claims_.promised(now_seconds());
    const bool overtaken = std::any_of(computed.nodes.begin(), computed.nodes.end(),
                                       [&](const std::string& node) {
                                         const auto was = input.promised.find(node);
                                         const auto is = now_promised.find(node);
                                         return is != now_promised.end() &&
                                                (was == input.promised.end() ||
                                                 is->second > was->second);
                                       });
    if (overtaken && attempt < kClaimAttempts - 1) continue;
    claims_.add(uid, computed.nodes, now_seconds());
    return computed;
  }
}

PlacementRecord ServiceState::keep(const PlaceRequest& request, const std::string& strategy,
                                   ComputedPlacement computed) {
  PlacementRecord record;
  record.job = request.job.value_or(0);
  record.uid = request.uid;
  record.graph_id = request.graph_id;
  record.strategy = strategy;
  record.nodes = std::move(computed.nodes);
  record.metrics = computed.metrics;
  record.time = now_seconds();
  const std::string job = request.job ? "job " + std::to_string(*request.job) : "placement";
  for (const std::string& metric : clamp_metrics(record.metrics))
    log(0, job + ": metric " + metric);
  if (request.job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      placements_.put(record);
    }
    const std::uint64_t ticket = placements_writer_.request();
    log(1, job + ": " + strategy + " placement of " + std::to_string(record.nodes.size()) +
               " tasks on " + std::to_string(record.metrics.nodes_used) + " nodes");
    if (request.wait_until_saved && !placements_writer_.wait(ticket))
      throw Error(job + ": placement recorded but not saved (see the slurmctld log)");
  }
  return record;
}

PlacementRecord ServiceState::fitted(unsigned job, const TaskLimits& limits) {
  PlacementRecord record;
  std::shared_ptr<const CommGraph> graph;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const PlacementRecord* existing = placements_.find(job);
    if (existing == nullptr) throw Error("no placement recorded for job " + std::to_string(job));
    const GraphRecord* graph_record = graphs_.find(existing->graph_id);
    if (graph_record == nullptr) throw Error("unknown graph id " + existing->graph_id);
    record = *existing;
    graph = graph_record->graph;
  }
  graph = restored(record.graph_id, std::move(graph));
  if (limits.max_tasks.empty()) throw Error("fitting a placement needs per-node task limits");
  MappingRequest request;
  request.graph = graph.get();
  request.topology = &topology_;
  request.candidate_nodes = limits.nodes;
  Placement placement;
  for (const std::string& name : record.nodes) placement.push_back(topology_.node_by_name(name));
  if (static_cast<int>(placement.size()) != graph->task_count() ||
      std::count(placement.begin(), placement.end(), -1) > 0)
    throw Error("job " + std::to_string(job) + ": the recorded placement does not match its graph");
  fit_task_limits(request, limits, placement);
  record.nodes.clear();
  for (int node : placement) record.nodes.push_back(topology_.node_name(node));
  record.metrics = PlacementMetrics{};
  record.time = now_seconds();
  return record;
}

PlacementRecord ServiceState::fit_job(unsigned job, const std::string& candidates) {
  PlacementRecord record = fitted(job, parse_candidates(topology_, candidates));
  std::shared_ptr<const CommGraph> graph;
  std::shared_ptr<const std::vector<double>> outage;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const GraphRecord* graph_record = graphs_.find(record.graph_id);
    if (graph_record == nullptr) throw Error("unknown graph id " + record.graph_id);
    graph = graph_record->graph;
    outage = health_.outage_snapshot(topology_, settings_.outage_model);
  }
  graph = restored(record.graph_id, std::move(graph));
  Placement placement;
  for (const std::string& name : record.nodes) placement.push_back(topology_.node_by_name(name));
  record.metrics = evaluate_placement(*graph, topology_, placement, *outage);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    placements_.put(record);
  }
  placements_writer_.request();
  log(1, "job " + std::to_string(job) + ": placement fitted to its allocation");
  return record;
}

PlacementRecord ServiceState::record_placement(uid_t uid, const std::string& graph_id,
                                               unsigned job, const std::string& strategy,
                                               const std::vector<std::string>& nodes) {
  std::shared_ptr<const CommGraph> graph;
  std::shared_ptr<const std::vector<double>> outage;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const GraphRecord& record = graphs_.usable(graph_id, uid, is_admin(uid));
    if (static_cast<int>(nodes.size()) != record.task_count)
      throw Error("graph " + record.id + " has " + std::to_string(record.task_count) +
                  " tasks, the placement " + std::to_string(nodes.size()));
    const PlacementRecord* existing = placements_.find(job);
    if (existing && existing->uid != uid && !is_admin(uid))
      throw Error("job " + std::to_string(job) + " belongs to another user");
    graph = record.graph;
    outage = health_.outage_snapshot(topology_, settings_.outage_model);
    claims_.release(uid, nodes, now_seconds());  // the job started: Slurm counts its CPUs
  }
  graph = restored(graph_id, std::move(graph));
  Placement placement;
  for (const std::string& name : nodes) {
    const int id = topology_.node_by_name(name);
    if (id < 0) throw Error("node " + name + " is not in the topology");
    placement.push_back(id);
  }
  PlacementRecord record;
  record.job = job;
  record.uid = uid;
  record.graph_id = graph_id;
  record.strategy = strategy.empty() ? settings_.default_strategy : strategy;
  record.nodes = nodes;
  record.metrics = evaluate_placement(*graph, topology_, placement, *outage);
  record.time = now_seconds();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    placements_.put(record);
  }
  if (!placements_writer_.wait(placements_writer_.request()))
    throw Error("job " + std::to_string(job) + ": placement recorded but not saved (see the slurmctld log)");
  log(1, "job " + std::to_string(job) + ": placement of a direct srun recorded");
  return record;
}

void ServiceState::move_placement(unsigned from, unsigned to) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const PlacementRecord* existing = placements_.find(from);
    if (existing == nullptr) throw Error("no placement recorded for job " + std::to_string(from));
    PlacementRecord record = *existing;
    record.job = to;
    placements_.erase(from);
    placements_.put(std::move(record));
  }
  placements_writer_.request();
  log(1, "job " + std::to_string(from) + ": placement now recorded for job " + std::to_string(to));
}

void ServiceState::forget_placement(unsigned job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (placements_.find(job) == nullptr) return;
    placements_.erase(job);
  }
  placements_writer_.request();
  log(1, "job " + std::to_string(job) + ": placement dropped");
}

PlacementRecord ServiceState::job_placement(unsigned job, std::optional<uid_t> uid) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const PlacementRecord* record = placements_.find(job);
  if (record == nullptr || (uid && record->uid != *uid && !is_admin(*uid)))
    throw Error("no placement recorded for job " + std::to_string(job));
  return *record;
}

// -------------------------------------------------------------------- nodes

std::vector<NodeReport> ServiceState::nodes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::set<std::string> polled;
  for (const NodeAddress& node : polled_) polled.insert(node.name);
  std::vector<std::string> names = topology_.node_names();
  std::set<std::string> listed(names.begin(), names.end());
  for (const std::string& name : polled)
    if (listed.insert(name).second) names.push_back(name);
  for (const auto& [name, record] : health_.records())
    if (listed.insert(name).second) names.push_back(name);

  std::vector<NodeReport> reports;
  for (const std::string& name : names) {
    NodeReport report;
    report.name = name;
    report.probability = health_.probability(name, settings_.outage_model);
    report.source = settings_.outage_model.to_string();
    const NodeRecord* record = health_.find(name);
    if (record) {
      if (record->override_probability) report.source = "override";
      report.last_heartbeat = record->last_heartbeat;
      report.last_answer = record->last_answer;
      report.answered = record->history.answered_total();
      report.missed = record->history.missed_total();
    }
    if (polled.count(name) == 0)
      report.state = "unpolled";
    else if (record == nullptr || record->last_heartbeat == 0)
      report.state = "unknown";
    else
      report.state = record->last_answered ? "responding" : "not_responding";
    reports.push_back(std::move(report));
  }
  return reports;
}

double ServiceState::node_outage(const std::string& name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // The polled list is scanned last: it is as long as the cluster.
  if (topology_.node_by_name(name) < 0 && health_.find(name) == nullptr &&
      std::none_of(polled_.begin(), polled_.end(),
                   [&](const NodeAddress& node) { return node.name == name; }))
    throw Error("unknown node " + name);
  return health_.probability(name, settings_.outage_model);
}

std::vector<std::string> ServiceState::failing_nodes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::vector<double>& outage = health_.outage_vector(topology_, settings_.outage_model);
  std::vector<std::string> names;
  for (int node = 0; node < topology_.node_count(); ++node)
    if (outage[node] > settings_.outage_threshold) names.push_back(topology_.node_name(node));
  return names;
}

void ServiceState::check_admin(uid_t uid, const std::string& what) const {
  if (!is_admin(uid))
    throw Error("permission denied: " + what + " needs root or uid " +
                std::to_string(admin_uid_) + " (SlurmUser), not uid " + std::to_string(uid));
}

void ServiceState::set_outage(uid_t uid, const std::string& node, double probability) {
  set_outages(uid, {{node, probability}});
}

void ServiceState::set_outages(uid_t uid,
                               const std::vector<std::pair<std::string, double>>& outages) {
  check_admin(uid, "set-outage");
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::set<std::string> polled;
    for (const NodeAddress& n : polled_) polled.insert(n.name);
    for (const auto& [node, probability] : outages)
      if (!polled.count(node) && topology_.node_by_name(node) < 0) throw Error("unknown node " + node);
    for (const auto& [node, probability] : outages) health_.set_override(node, probability);
  }
  const std::string what = outages.size() == 1 ? outages[0].first
                                                : std::to_string(outages.size()) + " nodes";
  if (outages.size() == 1)
    log(1, "outage probability of " + what + " set to " + format_number(outages[0].second) +
               " by uid " + std::to_string(uid));
  else
    log(1, "outage probabilities of " + what + " set by uid " + std::to_string(uid));
  persist_or_throw(kNodesFile, [&] { return health_.to_text(); },
                   "outage override of " + what + " not saved");
}

void ServiceState::clear_outage(uid_t uid, const std::string& node) {
  check_admin(uid, "clear-outage");
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!health_.clear_override(node)) throw Error("node " + node + " has no outage override");
  }
  log(1, "outage override of " + node + " cleared by uid " + std::to_string(uid));
  persist_or_throw(kNodesFile, [&] { return health_.to_text(); },
                   "clearing the outage override of " + node + " not saved");
}

void ServiceState::set_nodes(std::vector<NodeAddress> nodes) {
  for (NodeAddress& node : nodes) {
    if (node.name.empty()) throw Error("empty node name");
    if (node.address.empty()) node.address = node.name;
    if (node.slurmd_port == 0) node.slurmd_port = 6818;
    const int port = node.slurmd_port + settings_.heartbeat_port_offset;
    if (node.slurmd_port < 0 || port < 1 || port > 65535)
      throw Error("node " + node.name + ": slurmd port " + std::to_string(node.slurmd_port) +
                  " + HeartbeatPortOffset " + std::to_string(settings_.heartbeat_port_offset) +
                  " is not a valid port");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  polled_ = std::move(nodes);
}

std::vector<HeartbeatTarget> ServiceState::heartbeat_targets() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<HeartbeatTarget> targets;
  for (const NodeAddress& node : polled_)
    targets.push_back({node.name, node.address, node.slurmd_port + settings_.heartbeat_port_offset});
  return targets;
}

void ServiceState::record_heartbeats(const std::vector<std::pair<std::string, bool>>& outcomes,
                                     double now) {
  // In slices: slurmctld's scheduling pass, which takes this lock per TOFA
  // job, waits behind at most one slice of a 65,536-node round.
  constexpr std::size_t kHeartbeatsPerLock = 4096;
  for (std::size_t first = 0; first < outcomes.size(); first += kHeartbeatsPerLock) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t end = std::min(outcomes.size(), first + kHeartbeatsPerLock);
    for (std::size_t i = first; i < end; ++i)
      health_.record(outcomes[i].first, outcomes[i].second, now, settings_.outage_model);
  }
}

}  // namespace tofa::service
