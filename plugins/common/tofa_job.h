/*
 * tofa_job.h - what the node-choice shims of every release do alike with a
 * TOFA job inside slurmctld (select/cons_tres on 22.05, topology/tofa's
 * eval_nodes on 24.11 and 26.05): Slurm's job record read into the library's
 * terms, the service called, its node names turned back into bitmaps. The
 * decisions (task limits, node bounds, spreading, healthy nodes first) are
 * the library's (capi/tofa.h, capi/tofa_service.h). Include after slurmctld's headers.
 */
#ifndef TOFA_PLUGINS_TOFA_JOB_H
#define TOFA_PLUGINS_TOFA_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "capi/tofa_service.h"

/* A TOFA variable of the job's SPANK environment, NULL when absent. */
extern const char *tofa_job_env(job_record_t *job_ptr, const char *name);

/* --cpus-per-task, 1 when not given. */
extern uint32_t tofa_job_cpus_per_task(job_record_t *job_ptr);

/* The most tasks of the job a node offering `cpus` CPUs may run
 * (tofa_task_limit with the job's -c, --ntasks-per-node, --overcommit). */
extern uint32_t tofa_job_task_limit(job_record_t *job_ptr, uint32_t cpus);

/* The node count the placement must span, within Slurm's [*min_nodes,
 * *max_nodes] (tofa_node_bounds with the job's tasks, --ntasks-per-node). */
extern void tofa_job_node_bounds(job_record_t *job_ptr, uint32_t *min_nodes,
				 uint32_t *max_nodes);

/* The tasks each node may take (indexed like node_record_table_ptr, node
 * table = rank order): for every node with free_cpus[i] > 0 the tasks those
 * CPUs hold, spread over at least min_nodes nodes (tofa_spread_task_limits).
 * NULL when no node can take a task (xfree it otherwise); *room receives
 * the sum of the limits. */
extern unsigned *tofa_job_candidates(job_record_t *job_ptr,
				     const uint32_t *free_cpus,
				     uint32_t min_nodes, uint64_t *room);

/* TOFA's node choice on the nodes with limits[i] > 0 (tofa_job_candidates,
 * or the task limits of an allocation), each taking min_tasks (0 or 1)
 * to limits[i] tasks, spanning min_nodes to max_nodes nodes (0 = no
 * bound), recorded for the job: no strategy runs under slurmctld's locks,
 * and no node names go through text (tofa_service_choose_nodes_from). Its
 * node set, or NULL with err set. */
extern bitstr_t *tofa_job_choose_from(job_record_t *job_ptr,
				      const char *graph_id,
				      const unsigned *limits, unsigned min_tasks,
				      uint32_t min_nodes, uint32_t max_nodes,
				      char *err, size_t err_size);

/* Queues the job's strategy to order its tasks on its allocation, 1 to
 * allocation[i] tasks on each node with allocation[i] > 0 (NULL: the nodes
 * of its record, as many tasks on each), outside slurmctld's locks; its
 * steps wait for that up to PlacementWait. TOFA_OK or TOFA_ERROR. */
extern int tofa_job_map_later(job_record_t *job_ptr, const unsigned *allocation,
			      char *err, size_t err_size);

/* Drops the job's record, if any: it names nodes the job did not get. */
extern void tofa_job_forget(job_record_t *job_ptr);

/* The graph id TOFA places the job by, NULL when Slurm places it: no
 * graph, nodes pinned by the user (-w, cli_filter/tofa: theirs stand), or a
 * heterogeneous job's later component (the graph is its first's). */
extern const char *tofa_job_graph(job_record_t *job_ptr);

/* TOFA's node choice by `choose` (SLURM_SUCCESS when it placed the job), in
 * the order tofa_service_choose_healthy_first decides: on `candidates`
 * without the nodes above OutageThreshold, then, if OnlyFailingNodesFit
 * allows, on all of them (the decision logged). */
extern tofa_choice_t tofa_job_healthy_first(
	job_record_t *job_ptr, bitstr_t *candidates,
	int (*choose)(bitstr_t *nodes, void *arg), void *arg);

/* CLOCK_MONOTONIC in milliseconds, for the node choice's log line. */
extern double tofa_now_ms(void);

#endif /* TOFA_PLUGINS_TOFA_JOB_H */
