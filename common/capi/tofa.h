/*
 * tofa.h - the narrow C API of libtofa, for Slurm plugins and other C code.
 *
 * Every function catches all C++ exceptions inside the library: a failure
 * returns TOFA_ERROR (or NULL / -1 where documented) and, when `err` is not
 * NULL, writes a NUL-terminated reason of at most err_size bytes. Nothing
 * here aborts or throws. Objects are immutable after creation and may be
 * shared between threads for reading.
 */
#ifndef TOFA_H
#define TOFA_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TOFA_OK 0
#define TOFA_ERROR (-1)
/* The mapping worker crashed, hit MapMemoryLimit or MapTimeLimit, or could
 * not be started: the request may have been fine (tofa_service.h). */
#define TOFA_MAPPING_FAILED (-2)

typedef struct tofa_topology tofa_topology_t;
typedef struct tofa_graph tofa_graph_t;

/* ---- topology ---------------------------------------------------------- */

/* Loads "torus:8x8x8" / "mesh:4x4[:cores=N]" or a tofa.conf file (whose
 * service settings are validated too, see tofa_service.h). */
int tofa_topology_load(const char *spec_or_path, tofa_topology_t **out, char *err,
                       size_t err_size);
void tofa_topology_free(tofa_topology_t *topology);
int tofa_topology_node_count(const tofa_topology_t *topology);
int tofa_topology_cores_per_node(const tofa_topology_t *topology);
/* Node id of a name, -1 when unknown. */
int tofa_topology_node_index(const tofa_topology_t *topology, const char *name);
/* Name of a node id, NULL when out of range. Valid as long as the topology. */
const char *tofa_topology_node_name(const tofa_topology_t *topology, int node);
/* Hops of R(from, to); -1 on an id out of range. */
int tofa_topology_hops(const tofa_topology_t *topology, int from, int to);
/* Writes the nodes of R(from, to) (from, intermediates, to) into nodes[] and
 * returns how many there are; -1 on bad ids or when max_nodes is too small. */
int tofa_topology_route(const tofa_topology_t *topology, int from, int to, int *nodes,
                        int max_nodes);
/* Writes node_count ids in a locality-preserving (snake) order. */
int tofa_topology_snake_order(const tofa_topology_t *topology, int *order, int order_size);

/* ---- communication graphs -------------------------------------------- */

/* Reads a matrix / edge list / MatrixMarket file (format auto-detected). */
int tofa_graph_load(const char *path, tofa_graph_t **out, char *err, size_t err_size);
/* Parses text already in memory; source_name is used in error messages. */
int tofa_graph_parse(const char *text, size_t length, const char *source_name,
                     tofa_graph_t **out, char *err, size_t err_size);
/* Builds the graph of a communication pattern, "NAME:KEY=VALUE,..." (halo,
 * allreduce, bcast, alltoall, fft, training; docs/patterns.md). A bad spec
 * gives "bad pattern 'SPEC' at column C: ...". */
int tofa_graph_from_pattern(const char *spec, tofa_graph_t **out, char *err, size_t err_size);
/* The registered patterns' usage lines, i = 0, 1, ... (NULL past the end). */
const char *tofa_pattern_usage(int index);
void tofa_graph_free(tofa_graph_t *graph);
int tofa_graph_task_count(const tofa_graph_t *graph);

/* ---- mapping ------------------------------------------------------------ */

/* Name of the i-th registered strategy, NULL past the end. */
const char *tofa_strategy_name(int index);

typedef struct tofa_map_request {
  const char *strategy;     /* registered name; NULL means "tofa" */
  const int *candidates;    /* node ids in preference order; NULL = all nodes */
  int candidate_count;
  const double *outage;     /* one probability per node; NULL = all 0 */
  int slots_per_node;       /* 0 = the topology's cores per node */
  unsigned long long seed;
  double link_cost;         /* c of Equation 1 */
  double fault_penalty;     /* a link touching a faulty node costs c + penalty*c */
} tofa_map_request_t;

/* Fills the defaults: strategy "tofa", all nodes, seed 1, c = 1, penalty 100. */
void tofa_map_request_init(tofa_map_request_t *request);

/* Computes placement[task] = node id for every task of the graph. */
int tofa_map(const tofa_topology_t *topology, const tofa_graph_t *graph,
             const tofa_map_request_t *request, int *placement, int placement_size,
             char *err, size_t err_size);

typedef struct tofa_metrics {
  int tasks;
  int nodes_used;
  int max_hops;
  int links_used;
  double total_bytes;
  double hop_bytes;
  double average_hops;
  double hop_variance;
  double dilation;
  double max_link_load;
  double abort_probability;
} tofa_metrics_t;

/* Metrics of a placement; outage may be NULL. */
int tofa_evaluate(const tofa_topology_t *topology, const tofa_graph_t *graph,
                  const int *placement, int placement_size, const double *outage,
                  tofa_metrics_t *out, char *err, size_t err_size);

/* The most tasks the scheduler shims ever give one node ("NODE:MAX"). */
#define TOFA_MAX_TASKS_PER_NODE 65535

/* The most tasks of a job a node offering `cpus` CPUs may run: cpus /
 * cpus_per_task (0 counts as 1), any number with overcommit, at most
 * tasks_per_node (0: no bound), never above TOFA_MAX_TASKS_PER_NODE. */
unsigned tofa_task_limit(unsigned cpus, unsigned cpus_per_task, unsigned tasks_per_node,
                         int overcommit);

/* The node count a job's placement must span, within [*min_nodes,
 * *max_nodes] (0 = unbounded): with --ntasks-per-node (tasks_per_node > 0)
 * Slurm gives every node that many tasks, so exactly ceil(tasks /
 * tasks_per_node) nodes, at least *min_nodes. Unchanged otherwise. */
void tofa_node_bounds(unsigned tasks, unsigned tasks_per_node, unsigned *min_nodes,
                      unsigned *max_nodes);

/* A scheduler shim's per-node task limits for a job of `tasks` tasks on at
 * least `min_nodes` nodes: `limits` holds, per candidate, the tasks its free
 * CPUs can take (0: unusable) and receives the limits: at most the even
 * share ceil(tasks / min_nodes), raised while the min_nodes nodes that hold
 * the most cannot take every task under it; when min_nodes nodes hold the
 * whole share, the others are left out (0). TOFA_ERROR, limits unchanged,
 * only when memory runs out. */
int tofa_spread_task_limits(unsigned *limits, size_t count, unsigned tasks, unsigned min_nodes);

#ifdef __cplusplus
}
#endif

#endif /* TOFA_H */
