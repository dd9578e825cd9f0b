// The service's state and every operation on it, behind one mutex: graph
// store, node health, placement store, the nodes to heartbeat, and their
// persistence under the state directory. The network handler, the heartbeat
// thread and in-process callers (select/tofa) use it concurrently.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "service/deferred_writer.hpp"
#include "service/graph_store.hpp"
#include "service/mapping_queue.hpp"
#include "service/node_health.hpp"
#include "service/place_request.hpp"
#include "service/placement.hpp"
#include "service/placement_store.hpp"
#include "service/running_links.hpp"
#include "service/srun_claims.hpp"
#include "service/state_files.hpp"
#include "service/user_slots.hpp"
#include "net/log_limiter.hpp"
#include "service/tofa_conf.hpp"

namespace tofa::service {

/// level: 0 error, 1 info, 2 debug (as tofa_log_fn).
using Logger = std::function<void(int level, const std::string& message)>;

/// A node to heartbeat; see tofa_node_address_t.
struct NodeAddress {
  std::string name;
  std::string address;  ///< "" = name
  int slurmd_port = 0;  ///< 0 = 6818
};

struct HeartbeatTarget {
  std::string name;
  std::string host;
  int port = 0;
};

struct GraphUpload {
  std::string id;
  int task_count = 0;
  bool already_stored = false;  ///< identical text of the same user
};

/// One row of `tofactl nodes`.
struct NodeReport {
  std::string name;
  std::string state;   ///< responding, not_responding, unknown (never polled yet), unpolled
  double probability = 0;
  std::string source;  ///< "override" or the model, e.g. "window:100"
  double last_heartbeat = 0;
  double last_answer = 0;
  std::uint64_t answered = 0;
  std::uint64_t missed = 0;
};

/// File names inside the state directory.
constexpr const char* kGraphIndexFile = "graphs.state";
constexpr const char* kGraphDirectory = "graphs";
constexpr const char* kNodesFile = "nodes.state";
constexpr const char* kPlacementsFile = "placements.state";

class ServiceState {
 public:
  /// Loads the state directory ("" = keep nothing on disk). A bad record is
  /// logged and skipped; a file whose first line is unreadable is logged and
  /// moved aside; the rest loads. Throws Error when the directory cannot be
  /// created or a file was written by a newer tofa (it is left untouched:
  /// starting empty would overwrite it at the next save).
  ServiceState(ServiceSettings settings, Topology topology, uid_t admin_uid,
               std::string state_dir, Logger log);

  const ServiceSettings& settings() const { return settings_; }
  const Topology& topology() const { return topology_; }
  bool is_admin(uid_t uid) const { return uid == 0 || uid == admin_uid_; }

  /// Checks size (before parsing), parses (ParseError text verbatim, with
  /// `name` as the file name), checks the task limit, deduplicates, applies
  /// the per-user quota (evicting the least recently used graph that no
  /// pending or running job uses; Error "graph quota reached: ..." when there
  /// is none), stores and persists. Returns only once the graph and the index
  /// are on disk; throws Error otherwise.
  GraphUpload upload_graph(uid_t uid, const std::string& name, const std::string& text);
  /// The graph ids pending and running jobs refer to, read from slurmctld's
  /// job list at `taken_at` (slurmctld/tofa pushes them): never evicted by
  /// the quota, nor is a graph used within kReferenceGrace of `taken_at`
  /// (its job may have been submitted after the list was read).
  void set_referenced_graphs(std::set<std::string> ids, double taken_at = now_seconds());
  /// slurmctld's running jobs (every few seconds): the links of their
  /// recorded placements are counted (RunningLinks); jobs without a record
  /// are left out.
  void set_running_jobs(const std::vector<unsigned>& jobs);
  struct LinkLoad {
    std::string from, to;  ///< node names, in the direction of travel
    double bytes = 0;
    int jobs = 0;          ///< running jobs whose routes use it
  };
  /// The running jobs' busiest links, busiest first (at most `top`; 0: all
  /// loaded links). Empty until slurmctld has reported the running jobs.
  /// With LinkSharing=shared each link once, carrying both directions' bytes.
  std::vector<LinkLoad> busiest_links(int top) const;
  /// Share of the job's link traffic on links other running jobs use (in
  /// either direction with LinkSharing=shared); none when the job is not
  /// known to run.
  std::optional<double> shared_traffic(unsigned job) const;
  static constexpr double kReferenceGrace = 30;
  /// Graphs uid may see (copies; `graph` left null).
  std::vector<GraphRecord> graphs(uid_t uid) const;
  /// Throws Error "unknown graph id ID".
  int graph_task_count(const std::string& id, uid_t uid) const;
  /// Throws Error, also when the index cannot be saved.
  void delete_graph(const std::string& id, uid_t uid);

  /// Computes (outside the lock) and, with a job, records and persists.
  /// A job recorded for another uid is refused unless uid is an admin.
  /// Metrics that are not finite are clamped (clamp_metrics) and logged.
  PlacementRecord place(const PlaceRequest& request);
  /// Moves the fewest tasks of job's recorded placement so that it meets
  /// the per-node limits of `candidates` ("t1:1-8,t2:1-5", see
  /// PlacementInput::candidates), in this process (no strategy runs: the
  /// fit is linear-time code of this library), and records the result.
  /// Throws Error when the job has no record, its graph is gone or the
  /// limits cannot be met.
  PlacementRecord fit_job(unsigned job, const std::string& candidates);
  /// The scheduler's node choice for a job, what slurmctld's scheduling
  /// pass runs instead of a strategy: compact_choice over the candidates
  /// (linear time, in this process, the graph not read), recorded at once
  /// with the tasks in blocks and without metrics. Same checks as place().
  PlacementRecord choose_nodes(const PlaceRequest& request);
  /// The same on candidates already resolved (request.candidates unused);
  /// `ids`, when given, receives the node id per task.
  PlacementRecord choose_nodes(const PlaceRequest& request, const TaskLimits& limits,
                               Placement* ids = nullptr);
  /// Fits the job's recorded placement to its allocation's limits (as
  /// fit_job; no nodes = each node of the record keeps 1 to the tasks it
  /// has) and queues `strategy` ("" = DefaultStrategy) to order the job's
  /// tasks on those nodes outside slurmctld's locks (MappingQueue);
  /// meanwhile the record is pending. The result replaces it unless the job
  /// was placed again or take_placement settled it first. Throws Error as
  /// fit_job.
  void map_later(unsigned job, TaskLimits allocation, const std::string& strategy,
                 const std::string& parameters);
  /// job_placement, and a pending record is settled as it is: what a step
  /// that stops waiting for the strategy runs.
  PlacementRecord take_placement(unsigned job, std::optional<uid_t> uid);
  /// Returns once every queued mapping has finished (tools and tests).
  void wait_for_mappings() { mapping_queue_.wait_idle(); }
  /// Records a placement computed earlier (PLACE job=none by a direct
  /// srun, recorded once Slurm gave the job its id): the same checks as
  /// place() (graph usable by uid, task count, the job not another user's),
  /// node names from the topology. Persists before returning.
  PlacementRecord record_placement(uid_t uid, const std::string& graph_id, unsigned job,
                                   const std::string& strategy,
                                   const std::vector<std::string>& nodes);
  /// Re-keys a record: a job array task is placed under the array's job id
  /// and gets its own id only after (job_array_split). Throws Error "no
  /// placement recorded for job N".
  void move_placement(unsigned from, unsigned to);
  /// Drops the job's record, if any: it described nodes the job did not
  /// get (srun then lays the job out as Slurm does).
  void forget_placement(unsigned job);
  /// The job's record if uid (nullopt = trusted in-process caller) owns it
  /// or is an admin; else Error "no placement recorded for job N".
  PlacementRecord job_placement(unsigned job, std::optional<uid_t> uid) const;

  /// Every topology node, polled node and node with history, by name.
  std::vector<NodeReport> nodes() const;
  /// Throws Error "unknown node NAME".
  double node_outage(const std::string& name) const;
  /// Topology nodes whose outage probability is above OutageThreshold.
  std::vector<std::string> failing_nodes() const;
  /// Administrators only (Error "permission denied: ... needs root or uid N").
  /// Saved before they return (Error when that fails).
  void set_outage(uid_t uid, const std::string& node, double probability);
  /// Many at once, saved once (all or none: an unknown node sets nothing).
  void set_outages(uid_t uid, const std::vector<std::pair<std::string, double>>& outages);
  void clear_outage(uid_t uid, const std::string& node);

  void set_nodes(std::vector<NodeAddress> nodes);
  std::vector<HeartbeatTarget> heartbeat_targets() const;
  /// Records one round's outcomes (node, answered).
  void record_heartbeats(const std::vector<std::pair<std::string, bool>>& outcomes, double now);

  /// Writes every store (logging failures). Called at stop.
  void save_all();
  void save_nodes();

 private:
  void load();
  void load_graphs();
  /// The graph `request` names, usable by its uid, with the task count it
  /// asks for (0: any), touched now. Throws Error. mutex_ held.
  const GraphRecord& requested_graph(const PlaceRequest& request);
  /// A direct srun's placement, its nodes claimed for it.
  ComputedPlacement computed_with_claims(PlacementInput& input, uid_t uid);
  /// The record of a computed placement; kept (and saved) when it is a job's.
  PlacementRecord keep(const PlaceRequest& request, const std::string& strategy,
                       ComputedPlacement computed);
  /// What compute_placement needs for `request` on `graph` (outage vector,
  /// settings, auto's budget); failing nodes only for a claiming srun.
  /// `budget_share` scales auto's default budget (deferred mappings behind
  /// a backlog).
  PlacementInput placement_input(const PlaceRequest& request, const std::string& strategy,
                                 const CommGraph& graph, bool claims,
                                 double budget_share = 1) const;  // mutex_ held
  /// The job's record without metrics, its tasks moved to meet the
  /// allocation's limits (fit_job, map_later).
  PlacementRecord fitted(unsigned job, const TaskLimits& allocation);
  /// map_later's work: the strategy on the allocation, then the record.
  void finish_mapping(const PlaceRequest& request, long long sequence) noexcept;
  /// Job `job`'s record while it is still the one map_later queued as
  /// `sequence` (not placed again, forgotten or moved). mutex_ held.
  const PlacementRecord* queued_record(unsigned job, long long sequence) const;
  /// The strategy's order of the tasks on the allocation, published unless a
  /// step took the record first: the nodes that run, task by task (the
  /// order, or what the step took); nullopt when the record is gone.
  /// `outage` receives the outage vector the strategy saw.
  std::optional<std::vector<std::string>> publish_order(const PlaceRequest& request,
                                                        long long sequence,
                                                        const CommGraph& graph,
                                                        std::shared_ptr<const std::vector<double>>& outage);
  /// Evaluates what runs and stores the metrics in the record, if unchanged.
  void record_metrics(unsigned job, long long sequence, const CommGraph& graph,
                      const std::vector<std::string>& runs, const std::vector<double>& outage);
  /// Reads and parses one state file, logging the records it skipped.
  /// Unreadable: logged and moved aside. Newer version: Error.
  template <typename Parse>
  void load_file(const char* file, Parse parse);
  /// The graph a restored record names, parsed from its file.
  std::shared_ptr<const CommGraph> read_graph_file(const GraphRecord& record) const;
  /// `graph` when set, else graph `id` restored now (a restart restores
  /// only the index: the service answers at once). A file that cannot be
  /// restored drops the graph: Error naming it.
  std::shared_ptr<const CommGraph> restored(const std::string& id,
                                            std::shared_ptr<const CommGraph> graph);
  /// The graph of uid with this digest (touched), saving the index first if
  /// its last save failed; nullopt when there is none. Throws Error.
  std::optional<GraphUpload> existing_upload(uid_t uid, const std::string& digest);
  std::string path(const std::string& file) const { return state_dir_ + "/" + file; }
  std::string graph_path(const std::string& id) const;
  /// Writes one store: `snapshot` runs under the state lock, the write
  /// after it under the save lock (so writes land in order). Failures are
  /// logged and returned (false, *why), never thrown: a mutation in memory is
  /// not undone by a full disk.
  bool persist(const char* file, const std::function<std::string()>& snapshot,
               std::string* why = nullptr);
  /// persist, for a store whose text is put together outside the state
  /// lock: `capture` runs under it and returns what builds the text.
  bool persist_built(const char* file,
                     const std::function<std::function<std::string()>()>& capture,
                     std::string* why = nullptr);
  /// persist, for a change about to be acknowledged: Error "WHAT: REASON"
  /// when it was not saved.
  void persist_or_throw(const char* file, const std::function<std::string()>& snapshot,
                        const std::string& what);
  bool save_graph_index(std::string* why = nullptr);
  void check_admin(uid_t uid, const std::string& what) const;
  void log(int level, const std::string& message) const;

  const ServiceSettings settings_;
  const Topology topology_;
  /// Node id -> position in the snake order (Slurm's node order under
  /// topology/tofa).
  const std::vector<int> snake_rank_;
  const uid_t admin_uid_;
  const std::string state_dir_;
  const Logger log_;

  mutable std::mutex mutex_;  // guards everything below
  bool room_for_graph_of(uid_t uid) const;  // mutex_ held
  std::string quota_full_text() const;
  GraphStore graphs_;
  std::set<std::string> referenced_graphs_;
  /// Graphs used at or after this are kept; +inf before the first push (a
  /// service without slurmctld knows no jobs: all are evictable).
  double evictable_before_ = std::numeric_limits<double>::infinity();
  NodeHealth health_;
  PlacementStore placements_;
  RunningLinks running_links_;  // its own lock
  SrunClaims claims_;
  std::vector<NodeAddress> polled_;

  /// Inserts and erases of graphs, and how many of them the index on disk
  /// holds: an upload answered from the deduplication (perhaps of a graph
  /// whose own upload is still saving, or failed to) writes the index first
  /// unless it is up to date.
  std::uint64_t graph_changes_ = 0;
  std::uint64_t graph_changes_saved_ = 0;

  std::mutex save_mutex_;  // orders writes of state files
  /// A direct srun's placement is computed again when claims made while it
  /// was computed took room on its nodes, at most this many times in all
  /// (each other user's srun placed meanwhile costs at most one).
  static constexpr int kClaimAttempts = 8;
  UserSlots user_slots_{1};
  net::LogLimiter refusal_log_{1, std::chrono::seconds(60)};

  // Destroyed (and so flushed and joined) before the members above.
  DeferredWriter placements_writer_{[this] {
    return persist_built(kPlacementsFile, [&] {
      return [lines = placements_.lines()] { return PlacementStore::text_of(lines); };
    });
  }};
  /// Not tuned: two mappings at once on the two cores this was built on.
  static constexpr int kMappingThreads = 2;
  // After the writer: joined before it, the mappings it runs save through it.
  MappingQueue mapping_queue_{kMappingThreads};
};

}  // namespace tofa::service
