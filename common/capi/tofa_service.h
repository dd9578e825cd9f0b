/*
 * tofa_service.h - the C API of the TOFA service (the seed's "Fault Aware
 * slurmctld"), its heartbeat responder (the seed's "NodeState") and their
 * clients, for the Slurm plugins and tofactl.
 *
 * Conventions (as in tofa.h): every function catches all C++ exceptions; a
 * failure returns TOFA_ERROR and, when `err` is not NULL, writes a
 * NUL-terminated reason of at most err_size bytes. Strings returned through
 * `char **` are malloc'ed and NUL-terminated; release them with free().
 * Nothing here aborts, throws or calls exit().
 *
 * Threads: the service and the responder are process-wide singletons (one of
 * each per process). All tofa_service_* calls may be made from any thread,
 * concurrently with the service's own heartbeat and network threads.
 *
 * Network: every message is one munge credential-sealed request and reply
 * (common/net/frame.hpp). The service learns the caller's uid from munge and
 * enforces ownership: a graph or a job's placement is visible only to its
 * owner and to administrators (root and the admin_uid given at start, i.e.
 * SlurmUser).
 *
 * tofa.conf: the topology file (Dims=, NodeName= lines, see tofa.h) plus the
 * service keys below (case-insensitive, one or more KEY=VALUE per line):
 *   ServiceHost=             host clients connect to ("" = caller supplies)
 *   ServicePort=6830         TCP port of the service
 *   ServiceBindAddress=0.0.0.0   address the service listens on
 *   RequestTimeout=30        seconds a client waits for one exchange
 *   HeartbeatInterval=10     seconds between heartbeat rounds (fractional ok)
 *   HeartbeatTimeout=2       seconds a node has to answer one heartbeat
 *   HeartbeatPortOffset=1000 responder port = the node's slurmd port + this
 *   HeartbeatSessions=yes    after one munge TCP heartbeat, UDP heartbeats
 *                            under a key that heartbeat handed over
 *   OutageModel=window:100   or ewma:ALPHA (outage probability estimator)
 *   DefaultStrategy=auto     mapping strategy when a request names none
 *   PlacementBudget=10       ms auto may spend on a 128-task job (x (tasks/128)^0.8)
 *   LinkCost=1               c of the seed's Equation 1
 *   FaultPenalty=100         a link touching a faulty node costs c + penalty*c
 *   MaxGraphBytes=67108864   largest graph upload accepted
 *   MaxGraphTasks=65536      largest task count accepted
 *   MaxGraphsPerUser=64      graphs one uid may store; at the limit an upload
 *                            evicts that uid's least recently used graph.
 *                            Uploading identical text again returns the
 *                            existing id.
 *   PlacementRetention=1000  placements kept (oldest evicted first)
 */
#ifndef TOFA_SERVICE_H
#define TOFA_SERVICE_H

#include <stddef.h>

#include "tofa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* level: 0 error, 1 info, 2 debug. Called from service/responder threads. */
typedef void (*tofa_log_fn)(int level, const char *message);

#define TOFA_LOG_ERROR 0
#define TOFA_LOG_INFO 1
#define TOFA_LOG_DEBUG 2

/* ---- tofa.conf --------------------------------------------------------- */

/* Value of one key of tofa.conf, defaults applied (e.g. "ServicePort" ->
 * "6830"). Topology keys are not served here (use tofa_topology_load).
 * TOFA_ERROR on an unreadable or invalid file ("FILE:LINE:COL: ..."), an
 * unknown key, or a value longer than value_size - 1. */
int tofa_conf_get(const char *conf_path, const char *key, char *value, size_t value_size,
                  char *err, size_t err_size);

/* ---- the service (inside slurmctld) --------------------------------------- */

/* A node to heartbeat. The responder listens on address:(slurmd_port +
 * HeartbeatPortOffset). address NULL or "" means `name`; slurmd_port 0 means
 * 6818. */
typedef struct tofa_node_address {
  const char *name;
  const char *address;
  int slurmd_port;
} tofa_node_address_t;

/* Reads conf_path, restores the state saved in state_dir (created if
 * missing; a corrupt state file is logged and renamed aside to
 * NAME.corrupt.<epoch>), listens on ServiceBindAddress:ServicePort and starts
 * the heartbeat thread. admin_uid: SlurmUser (root is always an admin).
 * munge_socket NULL or "" = munge's default. log may be NULL (silent).
 * TOFA_ERROR if already running, on a bad conf or when the port is taken. */
int tofa_service_start(const char *conf_path, const char *state_dir, unsigned admin_uid,
                       const char *munge_socket, tofa_log_fn log, char *err, size_t err_size);

/* Replaces the set of nodes to heartbeat (callable any time; histories of
 * nodes that stay are kept). Names not in the topology are heartbeated but
 * cannot be placed on. TOFA_ERROR when the service is not running. */
int tofa_service_set_nodes(const tofa_node_address_t *nodes, int count, char *err,
                           size_t err_size);

/* The graph ids that pending and running jobs refer to (the whole set,
 * replacing the previous one): the per-user quota never evicts them. */
/* The jobs running now (slurmctld's job table, every few seconds): the
 * links their recorded placements use are counted (tofactl links; with
 * InterferenceWeight > 0 new placements avoid them). */
int tofa_service_set_running_jobs(const unsigned *jobs, int count, char *err, size_t err_size);

int tofa_service_set_referenced_graphs(const char *const *ids, int count, char *err,
                                       size_t err_size);

/* Persists the state, stops the listener and the heartbeat thread and
 * joins them. Safe to call twice or when never started. */
void tofa_service_stop(void);

/* 1 when running, else 0. */
int tofa_service_running(void);

/* The port the service listens on (useful with ServicePort=0), -1 when not
 * running. */
int tofa_service_port(void);

/* Task count of a stored graph; TOFA_ERROR "unknown graph id ID" when it does
 * not exist or `uid` is neither its owner nor an admin (the same message, so
 * ids of other users cannot be probed). */
int tofa_service_graph_info(const char *graph_id, unsigned uid, int *task_count, char *err,
                            size_t err_size);

/* Computes and records the placement of job `job_id` (in process, no
 * network; job_id 0 = record nothing). graph_id must be usable by uid (see
 * tofa_service_graph_info). strategy NULL or "" = DefaultStrategy.
 * candidates: comma-separated node names in preference order (Slurm hostlist
 * ranges accepted); NULL or "" = all topology nodes. With per-node task
 * limits when every item ends in ":MAX" or ":MIN-MAX": "t[1-2]:1-8,t5:1-3"
 * is an allocation (each node gets 1 to MAX tasks), "t1:3,t2:8" the free
 * CPUs of a node choice; slots_per_node must then be 0.
 * slots_per_node 0 = CoresPerNode. With task limits, min_nodes and
 * max_nodes bound the distinct nodes the placement spans (0 = no bound), as
 * -N MIN-MAX asks. parameters NULL or "" = none, else the
 * strategy's settings "KEY=VALUE;KEY=VALUE" (--tofa-param; `spec` refused). *placement receives a
 * comma list of node names, one per task (task i = i-th name). metrics may be
 * NULL. Re-placing a job replaces its record. Returns without waiting for
 * the disk (the caller holds slurmctld's locks): a background thread writes
 * the record right after, see tofa_slurm(8), FILES. Returns
 * TOFA_MAPPING_FAILED when the mapping worker failed (see tofa.h). */
int tofa_service_place_job(unsigned job_id, unsigned uid, const char *graph_id,
                           const char *strategy, const char *candidates, int slots_per_node,
                           int min_nodes, int max_nodes, const char *parameters,
                           char **placement, tofa_metrics_t *metrics, char *err,
                           size_t err_size);

/* The scheduler's node choice for job_id, what slurmctld's scheduling pass
 * runs instead of a strategy (time linear in the candidates, the graph not
 * read): the compact box of `candidates` (as in tofa_service_place_job)
 * that holds the graph's tasks, fault-free nodes first, on min_nodes to
 * max_nodes nodes (0 = no bound), tasks in blocks; recorded for the job.
 * *placement as in tofa_service_place_job. */
int tofa_service_choose_nodes(unsigned job_id, unsigned uid, const char *graph_id,
                              const char *candidates, int min_nodes, int max_nodes,
                              char **placement, char *err, size_t err_size);

/* A candidate node of tofa_service_choose_nodes_from: its name (Slurm's,
 * as in the topology) and the tasks it may take, 1 <= max_tasks and
 * min_tasks <= max_tasks (min_tasks 0: it may be left out). */
typedef struct {
    const char *name;
    unsigned min_tasks;
    unsigned max_tasks;
} tofa_candidate_t;

/* tofa_service_choose_nodes on `count` candidates given as an array:
 * tasks[i] (count entries) receives the tasks the choice puts on
 * candidates[i], 0 for the nodes it leaves out. What the scheduling pass
 * calls: no candidate text to build and parse, no placement text to read
 * back (at 65,536 nodes those took most of the pass's time per job). */
int tofa_service_choose_nodes_from(unsigned job_id, unsigned uid, const char *graph_id,
                                   const tofa_candidate_t *candidates, int count,
                                   int min_nodes, int max_nodes, unsigned *tasks,
                                   char *err, size_t err_size);

/* Fits job_id's recorded placement to the task limits of its allocation,
 * `count` nodes given as tofa_service_choose_nodes_from takes candidates
 * (min_tasks 1 on each node: every node of an allocation runs a task),
 * moving the fewest tasks (count 0: each node of the record keeps 1 to the
 * tasks it has), and queues `strategy` (NULL = the default) with
 * `parameters` to order the job's tasks on it, outside slurmctld's locks;
 * srun waits for that up to PlacementWait seconds, then runs the recorded
 * order. TOFA_ERROR when the job has no record or the limits cannot be met. */
int tofa_service_map_later(unsigned job_id, const tofa_candidate_t *allocation, int count,
                           const char *strategy, const char *parameters, char *err,
                           size_t err_size);

/* Returns once every mapping tofa_service_map_later queued has finished
 * (tofa-harness reads its stream's final placements; never in slurmctld). */
void tofa_service_wait_for_mappings(void);

/* 1 while job_id's strategy is still ordering its tasks (map_later), 0 when
 * its record is final, -1 when it has none. */
int tofa_service_placement_pending(unsigned job_id);

/* Moves job `from`'s record to job `to` (a job array task, placed under the
 * array's id before Slurm gave it its own). TOFA_ERROR when `from` has none. */
int tofa_service_move_placement(unsigned from, unsigned to, char *err, size_t err_size);

/* Drops job_id's recorded placement, if any (TOFA_OK either way): the
 * select shim's placement did not survive to the job's allocation. */
int tofa_service_forget_job(unsigned job_id, char *err, size_t err_size);

/* OutageThreshold: TOFA jobs avoid nodes whose outage probability is above
 * it (1 when the service is not running). */
double tofa_service_outage_threshold(void);

/* *names receives a comma list of the topology nodes whose outage
 * probability is above OutageThreshold ("" when none); free() it. */
int tofa_service_failing_nodes(char **names, char *err, size_t err_size);

/* Outcomes of tofa_service_choose_healthy_first. */
typedef enum {
  TOFA_CHOICE_MADE = 0,  /* `choose` placed the job */
  TOFA_CHOICE_WAITS = 1, /* it fits only with nodes above OutageThreshold (OnlyFailingNodesFit=wait) */
  TOFA_CHOICE_NONE = 2   /* `choose` placed it on no candidate set it was given */
} tofa_choice_t;

/* The order of a TOFA job's node choices. choose(0, &left_out, arg) chooses
 * on the candidates without the nodes tofa_service_failing_nodes names and
 * sets left_out to how many candidates it left out; choose(1, &left_out, arg)
 * on all of them; each returns TOFA_OK when it placed the job. When the first
 * fails having left nodes out, OnlyFailingNodesFit decides: the job waits, or
 * the second is tried. `note` receives that decision for the log, "" when
 * none was taken (the service not running: as OnlyFailingNodesFit=wait). */
tofa_choice_t tofa_service_choose_healthy_first(int (*choose)(int with_failing, int* left_out,
                                                              void* arg),
                                                void* arg, char* note, size_t note_size);

/* The recorded placement of a job, or TOFA_ERROR "no placement recorded for
 * job N". */
int tofa_service_job_placement(unsigned job_id, char **placement, char *err, size_t err_size);

/* Current outage probability of a node (override if set, else the model);
 * TOFA_ERROR "unknown node NAME" if it is neither heartbeated nor in the
 * topology (topology nodes never heartbeated have 0). */
int tofa_service_node_outage(const char *node_name, double *probability, char *err,
                             size_t err_size);

/* Pins the outage probability of `count` nodes (an administrator's
 * set-outage, in process; saved once; all or none). */
int tofa_service_set_outages(const char *const *nodes, const double *probabilities, int count,
                             char *err, size_t err_size);

/* Heartbeat figures: rounds completed, seconds the last one took, nodes
 * heartbeated over UDP (holding a session key). Any pointer may be NULL. */
int tofa_service_heartbeat_stats(long *rounds, double *last_round_seconds, long *sessions,
                                 char *err, size_t err_size);

/* ---- the responder (inside slurmd) ---------------------------------------- */

/* Starts a thread answering heartbeats "HEARTBEAT node=NAME" with
 * "ALIVE NAME" on bind_address:port (NULL or "" = 0.0.0.0). Heartbeats whose
 * munge credential is not from service_uid are answered with an ERROR and
 * logged. conf_path (NULL or "" = the defaults) gives MaxConnections,
 * MaxConnectionsPerPeer and HeaderTimeout. Never blocks the caller beyond
 * reading conf_path and binding the socket.
 * TOFA_ERROR if already running, conf_path is bad or the port cannot be bound. */
int tofa_responder_start(const char *conf_path, const char *node_name, const char *bind_address,
                         int port, const char *munge_socket, unsigned service_uid,
                         tofa_log_fn log, char *err, size_t err_size);

/* Stops and joins the responder. Safe to call twice or when never started. */
void tofa_responder_stop(void);

/* 1 when running, else 0. */
int tofa_responder_running(void);

/* ---- clients (srun/sbatch plugins, tofactl) --------------------------------- */

/* Where a client connects: host NULL or "" = ServiceHost of conf_path; host
 * may be "HOST" or "HOST:PORT" (default port ServicePort). conf_path may be
 * NULL only when host carries a port. munge_socket NULL or "" = default. */

/* Sends one raw request ("VERB key=value ...\nBODY", see README "Service
 * protocol") and waits for the reply. On a reply "OK ..." returns TOFA_OK and
 * *reply receives the whole reply text. On "ERROR REASON" returns TOFA_ERROR
 * with REASON in err (*reply set to NULL); transport failures likewise. */
int tofa_client_request(const char *conf_path, const char *host, const char *munge_socket,
                        const char *request, size_t length, char **reply, char *err,
                        size_t err_size);

/* Reads the graph file at graph_path (its size is checked against
 * MaxGraphBytes before reading) and uploads it. The service parses it; a
 * parse error comes back verbatim with graph_path as the file name, e.g.
 * "comm.mat:3:5: expected a number". *graph_id receives the new id;
 * task_count may be NULL. */
int tofa_client_upload_graph(const char *conf_path, const char *host, const char *munge_socket,
                             const char *graph_path, char **graph_id, int *task_count, char *err,
                             size_t err_size);

/* Builds the graph of a pattern ("halo:ranks=8x8,cells=100x100", see
 * tofa_graph_from_pattern) and uploads it under the name "pattern:SPEC". */
int tofa_client_upload_pattern(const char *conf_path, const char *host, const char *munge_socket,
                               const char *spec, char **graph_id, int *task_count, char *err,
                               size_t err_size);

/* The recorded placement of job_id (comma list, one node per task) and, when
 * graph_id is not NULL, the id of the graph it was computed for; only the
 * job's owner and admins may read it. */
int tofa_client_job_placement(const char *conf_path, const char *host, const char *munge_socket,
                              unsigned job_id, char **placement, char **graph_id, char *err,
                              size_t err_size);

/* A placement request to the service (tofa_client_place). */
typedef struct {
    const char *graph_id;
    /* > 0: the placement is recorded for this job with the caller as owner
     * (a job recorded for another uid is refused; TOFA_OK means the record
     * is on disk); 0: nothing is recorded. */
    unsigned job_id;
    int task_count; /* 0 = the graph's; otherwise it must equal it */
    /* strategy, candidates, slots_per_node, parameters: as in
     * tofa_service_place_job (NULL = the default). */
    const char *strategy;
    const char *candidates;
    int slots_per_node;
    const char *parameters;
    /* With per-node task limits: the distinct nodes the placement spans,
     * at least min_nodes and at most max_nodes (0 = no bound), as srun -N
     * MIN-MAX asks. */
    int min_nodes;
    int max_nodes;
    /* A direct srun (job_id 0): its tasks are promised until
     * tofa_client_record_placement records its job (or 30 s pass), and it
     * avoids the tasks promised to other direct sruns while it fits beside
     * them, so that concurrent direct sruns do not all pin the same nodes. */
    int direct_srun;
} tofa_place_request_t;

/* Asks the service for a placement: e.g. a direct srun's before submission,
 * a step's inside its allocation, a trial before sbatch. */
int tofa_client_place(const char *conf_path, const char *host, const char *munge_socket,
                      const tofa_place_request_t *request, char **placement, char *err,
                      size_t err_size);

/* Records `placement` (comma list, one node per task, as tofa_client_place
 * returned it for job 0) for job_id with the caller as owner: what a direct
 * srun ran, recorded once Slurm gave the job its id. Refused for a job
 * recorded for another uid. */
int tofa_client_record_placement(const char *conf_path, const char *host,
                                 const char *munge_socket, const char *graph_id, unsigned job_id,
                                 const char *strategy, const char *placement, char *err,
                                 size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* TOFA_SERVICE_H */
