/*
 * topology/tofa for Slurm 24.11 and 26.05: the topology
 * plugin chooses the nodes of TOFA jobs and runs the TOFA service.
 *
 * In 24.11 and 26.05 (from 23.02 on), select/cons_tres asks the topology plugin to choose a
 * job's nodes (cons_tres: _select_nodes -> topology_g_eval_nodes ->
 * topology_p_eval_nodes, with the nodes the job may use in node_map and what
 * each offers it in avail_res_array), and SlurmctldPlugstack is gone. So on
 * these releases tofa needs neither the select/cons_tres shim of 22.05 nor
 * slurmctld/tofa:
 *   - topology_p_eval_nodes: for a job whose spank environment carries
 *     TOFA_GRAPH_ID (tofa_loadmatrix) and that pinned no nodes, TOFA's node
 *     choice over the usable nodes (tofa_service_choose_nodes_from: each node
 *     limited to the tasks the CPUs cons_tres offers it can take; nodes
 *     above OutageThreshold left out while the job fits elsewhere; linear
 *     time, no strategy under slurmctld's locks) is recorded for the job and
 *     Slurm's generic node choice (common_topo_choose_nodes) then runs on
 *     exactly those nodes; if that fails, or anything before it, the generic
 *     choice runs on all usable nodes (logged), and a placement recorded on
 *     the way goes (24.11; the job's first srun places it on its allocation)
 *     or is made anew on the allocation (26.05, get_rank). Other jobs: the
 *     generic choice as with topology/flat (26.05) or topology/default
 *     (24.11), on the node table ranked along the torus' snake order.
 *   - The job's strategy orders its tasks afterwards, outside the locks
 *     (tofa_service_map_later): on 26.05 from topology_p_get_rank, right
 *     after cons_tres has built the allocation (job_test.c, after
 *     dist_tasks, for allocations of more than one node), on the CPUs
 *     actually granted, as the 22.05 select shim does after job_test;
 *     24.11 has no such hook (nor 26.05 on one node), so there on the
 *     chosen nodes with the tasks the choice gave each.
 *   - init() in slurmctld starts the TOFA service (plugins/common/tofa_ctld.c,
 *     as slurmctld/tofa does on 22.05).
 * The torus ranking itself is topology_tofa.c's (tofa_topo_generate_ranking).
 */
#include "common/slurm_config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/bitstring.h"
#include "src/common/core_array.h"
#include "src/common/job_resources.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/interfaces/topology.h"
#include "src/slurmctld/slurmctld.h"
#include "src/plugins/topology/common/common_topo.h"

#include "capi/tofa_service.h"
#include "common/slurm_compat.h"
#include "common/tofa_ctld.h"
#include "common/tofa_glue.h"
#include "common/tofa_job.h"

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0)
#error "topology_tofa_eval.c is for Slurm 24.11 and 26.05; 22.05 uses topology_tofa.c alone"
#endif

const char plugin_name[] = "topology tofa plugin (torus ranking, TOFA node choice)";
const char plugin_type[] = "topology/tofa";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;
/* Not one of Slurm's TOPOLOGY_PLUGIN_* ids (100-104); clients unpacking
 * topology information ("scontrol show topology") need this plugin too. */
const uint32_t plugin_id = 190;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
const bool supports_exclusive_topo = false;
#endif

extern bool tofa_topo_generate_ranking(void);

/* The job of the last TOFA node choice, for get_rank (26.05): cons_tres
 * calls eval_nodes and then get_rank for the same job under the job write
 * lock; get_rank looks the job up by id (it may be gone if cons_tres failed
 * after eval_nodes) and checks that the bitmap is its allocation. With
 * last_place_anew, Slurm's generic choice took other nodes than the
 * placement recorded at node choice: get_rank places the job anew on its
 * allocation instead of fitting that placement to it. */
static uint32_t last_tofa_job_id = 0;
static bool last_place_anew = false;

extern int init(void)
{
	if (running_in_slurmctld())
		tofa_ctld_start(plugin_type);
	verbose("%s: %s loaded", plugin_type, __func__);
	return SLURM_SUCCESS;
}

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
extern void fini(void)
{
	if (running_in_slurmctld())
		tofa_ctld_stop();
}
#else
extern int fini(void)
{
	if (running_in_slurmctld())
		tofa_ctld_stop();
	return SLURM_SUCCESS;
}
#endif

/* ---- TOFA node choice ---------------------------------------------------- */

/* The tasks each node of `map` may take (tofa_job_candidates): what the
 * CPUs cons_tres offers the job there hold; with -N at most an even share
 * per node (tofa_spread_task_limits, as the 22.05 shim). */
static unsigned *_candidates(topology_eval_t *topo_eval, bitstr_t *map,
			     uint32_t min_nodes, uint64_t *room)
{
	uint32_t *free_cpus = xcalloc(node_record_count, sizeof(*free_cpus));
	node_record_t *node_ptr;
	unsigned *list;

	for (int i = 0; (node_ptr = next_node_bitmap(map, &i)); i++) {
		avail_res_t *res = topo_eval->avail_res_array ?
				   topo_eval->avail_res_array[i] : NULL;

		if (res)
			free_cpus[i] = res->avail_cpus;
	}
	list = tofa_job_candidates(topo_eval->job_ptr, free_cpus, min_nodes,
				   room);
	xfree(free_cpus);
	return list;
}

/* Slurm's generic choice restricted to `wanted`, all of them; on failure
 * node_map, avail_core and the node counts are as before. */
static int _choose_exactly(topology_eval_t *topo_eval, bitstr_t *wanted)
{
	bitstr_t *orig_map = bit_copy(topo_eval->node_map);
	bitstr_t **orig_core = copy_core_array(topo_eval->avail_core);
	uint32_t min = topo_eval->min_nodes, max = topo_eval->max_nodes;
	uint32_t req = topo_eval->req_nodes, count;
	int rc;

	bit_and(topo_eval->node_map, wanted);
	count = bit_set_count(topo_eval->node_map);
	topo_eval->min_nodes = topo_eval->max_nodes = topo_eval->req_nodes =
		count;
	rc = common_topo_choose_nodes(topo_eval);
	if (rc == SLURM_SUCCESS &&
	    (uint32_t) bit_set_count(topo_eval->node_map) != count)
		rc = SLURM_ERROR; /* not the placement's nodes after all */
	if (rc != SLURM_SUCCESS) {
		/* The generic choice only clears bits: OR restores them (as
		 * common_topo_choose_nodes does between its own retries). */
		bit_copybits(topo_eval->node_map, orig_map);
		core_array_or(topo_eval->avail_core, orig_core);
	}
	topo_eval->min_nodes = min;
	topo_eval->max_nodes = max;
	topo_eval->req_nodes = req;
	FREE_NULL_BITMAP(orig_map);
	free_core_array(&orig_core);
	return rc;
}

/* TOFA's node choice on the nodes of `map` (a subset of node_map). */
static int _tofa_choose(topology_eval_t *topo_eval, const char *graph_id,
			bitstr_t *map, bool *recorded, char *err,
			size_t err_size)
{
	job_record_t *job_ptr = topo_eval->job_ptr;
	job_details_t *details = job_ptr->details;
	uint32_t min_nodes = topo_eval->min_nodes, max_nodes = topo_eval->max_nodes;
	uint32_t tasks = details ? details->num_tasks : 0, count;
	uint64_t room = 0;
	unsigned *candidates;
	bitstr_t *wanted;
	double start = tofa_now_ms();
	int rc;

	tofa_job_node_bounds(job_ptr, &min_nodes, &max_nodes);
	candidates = _candidates(topo_eval, map, min_nodes, &room);
	if (room < tasks) {
		snprintf(err, err_size, "%" PRIu64 " task slots for %u tasks",
			 room, tasks);
		xfree(candidates);
		return SLURM_ERROR;
	}
	wanted = tofa_job_choose_from(job_ptr, graph_id, candidates, 0, min_nodes, max_nodes,
			err, err_size);
	xfree(candidates);
	if (!wanted)
		return SLURM_ERROR;
	*recorded = true;
	count = bit_set_count(wanted);
	if (count < topo_eval->min_nodes ||
	    (topo_eval->max_nodes && count > topo_eval->max_nodes)) {
		snprintf(err, err_size,
			 "the placement uses %u nodes, the job asks for %u-%u",
			 count, topo_eval->min_nodes, topo_eval->max_nodes);
		FREE_NULL_BITMAP(wanted);
		return SLURM_ERROR;
	}
	rc = _choose_exactly(topo_eval, wanted);
	FREE_NULL_BITMAP(wanted);
	if (rc != SLURM_SUCCESS) {
		snprintf(err, err_size,
			 "cons_tres cannot allocate the placement's nodes now");
		return rc;
	}
	last_tofa_job_id = job_ptr->job_id;
	last_place_anew = false;
	/* No later hook (get_rank is 26.05's, and cons_tres calls it only for
	 * more than one node): the strategy orders the tasks on the chosen
	 * nodes, each keeping the tasks the choice gave it. */
	if ((SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(26, 5, 0) || count == 1) &&
	    tofa_job_map_later(job_ptr, NULL, err, err_size) != TOFA_OK)
		error("%s: %s: %pJ: %s; srun runs the node choice's order",
		      plugin_type, __func__, job_ptr, err);
	info("%s: %s: %pJ: TOFA chose its %u nodes (%.2f ms)", plugin_type,
	     __func__, job_ptr, count, tofa_now_ms() - start);
	return SLURM_SUCCESS;
}

/*
 * The answer of eval_nodes when a TOFA job must wait (OnlyFailingNodesFit=wait). cons_tres asks eval_nodes both to allocate and whether the
 * job could ever run (SELECT_MODE_TEST_ONLY) without telling which, and
 * slurmctld rejects a job that fails the latter ("Requested node configuration
 * is not available"): a direct srun was refused where 22.05's select shim,
 * which sees the mode, lets it pend. ESLURM_LICENSES_UNAVAILABLE is the one
 * answer of a node choice that _pick_best_nodes (24.11 and 26.05) turns into
 * "pending" rather than "never runnable"; squeue then shows Reason=Licenses,
 * slurmctld's log the TOFA reason.
 */
#define TOFA_WAIT ESLURM_LICENSES_UNAVAILABLE

/* TOFA_WAIT, without the placement this node choice recorded, if any. */
static int _wait(job_record_t *job_ptr, bool recorded)
{
	if (recorded)
		tofa_job_forget(job_ptr);
	return TOFA_WAIT;
}

/* Slurm's generic choice for a job whose TOFA choice failed. A placement
 * recorded on the way names nodes the job did not get: 26.05's get_rank
 * places the job anew on its allocation; 24.11 has no later hook, so the
 * record goes and the job's first srun places it on its allocation. */
static int _generic_choice(topology_eval_t *topo_eval, bool recorded,
			   const char *why)
{
	job_record_t *job_ptr = topo_eval->job_ptr;
	int rc = common_topo_choose_nodes(topo_eval);

	if (rc == SLURM_SUCCESS)
		info("%s: %s: %pJ: %s; Slurm chose its nodes", plugin_type,
		     __func__, job_ptr, why);
	if (!recorded)
		return rc;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	if (rc == SLURM_SUCCESS) {
		last_tofa_job_id = job_ptr->job_id;
		last_place_anew = true;
		return rc;
	}
#endif
	tofa_job_forget(job_ptr);
	return rc;
}

/* One node choice of tofa_job_healthy_first. */
struct tofa_choose_args {
	topology_eval_t *topo_eval;
	const char *graph_id;
	bool recorded;
	char err[1024];
};

static int _tofa_choose_on(bitstr_t *nodes, void *arg)
{
	struct tofa_choose_args *a = arg;

	return _tofa_choose(a->topo_eval, a->graph_id, nodes, &a->recorded,
			    a->err, sizeof(a->err));
}

extern int topology_p_eval_nodes(topology_eval_t *topo_eval)
{
	job_record_t *job_ptr = topo_eval->job_ptr;
	struct tofa_choose_args args = { topo_eval, NULL, false, "" };

	if (job_ptr && topo_eval->node_map && topo_eval->avail_res_array)
		args.graph_id = tofa_job_graph(job_ptr);
	if (!args.graph_id)
		return common_topo_choose_nodes(topo_eval);
	if (!tofa_service_running()) {
		info("%s: %s: %pJ: the TOFA service is not running; Slurm chooses its nodes",
		     plugin_type, __func__, job_ptr);
		return common_topo_choose_nodes(topo_eval);
	}
	switch (tofa_job_healthy_first(job_ptr, topo_eval->node_map,
				       _tofa_choose_on, &args)) {
	case TOFA_CHOICE_MADE:
		return SLURM_SUCCESS;
	case TOFA_CHOICE_WAITS:
		return _wait(job_ptr, args.recorded);
	default:
		return _generic_choice(topo_eval, args.recorded, args.err);
	}
}

/* ---- the rest of the topology API: as topology/flat (default) ------------- */

/* The signatures are Slurm's; most arguments are of no use to tofa. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
/* ------------------------------- Slurm 26.05 ------------------------------ */

/* The job's allocation as tofa_job_map_later takes it: 1 to its CPUs
 * granted / CPUs per task on each node (indexed like the node table).
 * NULL without job resources; xfree it otherwise. */
static unsigned *_allocation(job_record_t *job_ptr)
{
	job_resources_t *res = job_ptr->job_resrcs;
	unsigned *limit;
	node_record_t *node_ptr;
	uint32_t n = 0;

	if (!res || !res->node_bitmap || !res->cpus)
		return NULL;
	limit = xcalloc(node_record_count, sizeof(*limit));
	for (int i = 0; (node_ptr = next_node_bitmap(res->node_bitmap, &i)) &&
			n < res->nhosts; i++) {
		limit[i] = tofa_job_task_limit(job_ptr, res->cpus[n++]);
		limit[i] = MAX(limit[i], 1);
	}
	return limit;
}

/* The job's placement on what cons_tres granted: the one recorded at node
 * choice, moved by the fewest tasks to the CPUs granted, unless `anew`;
 * else (or if that fails) a new placement on the allocation. */
static void _place_on_allocation(job_record_t *job_ptr, bool anew)
{
	char err[1024] = "";
	unsigned *allocation = _allocation(job_ptr);
	bitstr_t *nodes = NULL;

	if (!allocation) {
		if (anew)
			tofa_job_forget(job_ptr);
		return;
	}
	if (!anew && tofa_job_map_later(job_ptr, allocation, err, sizeof(err)) ==
			     TOFA_OK) {
		xfree(allocation);
		return;
	}
	if ((nodes = tofa_job_choose_from(job_ptr, tofa_job_env(job_ptr, TOFA_ENV_GRAPH_ID),
					  allocation, 1, 0, 0, err, sizeof(err))) &&
	    tofa_job_map_later(job_ptr, allocation, err, sizeof(err)) != TOFA_OK)
		FREE_NULL_BITMAP(nodes);
	if (!nodes) {
		error("%s: %s: %pJ: no TOFA placement on its allocation of %u nodes: %s; srun places its steps",
		      plugin_type, __func__, job_ptr, job_ptr->job_resrcs->nhosts, err);
		tofa_job_forget(job_ptr);
	}
	FREE_NULL_BITMAP(nodes);
	xfree(allocation);
}

extern int topology_p_add_rm_node(node_record_t *node_ptr, char *unit,
				  topology_ctx_t *tctx)
{
	return SLURM_SUCCESS;
}

/* No one-node fast path (cons_tres' _get_one_res bypasses eval_nodes): a
 * one-node TOFA job must still keep off failing nodes and get its placement
 * recorded. torus3d does the same ("always go through the placement
 * check"); jobs without a graph then take common_topo_choose_nodes. */
extern bool topology_p_allow_one_node(void *tctx)
{
	return false;
}

extern int topology_p_build_config(topology_ctx_t *tctx)
{
	tctx->plugin_ctx = tctx->config;
	return SLURM_SUCCESS;
}

extern int topology_p_destroy_config(topology_ctx_t *tctx)
{
	tctx->plugin_ctx = NULL;
	return SLURM_SUCCESS;
}

extern int topology_p_eval_node(topology_eval_t *topo_eval, int node_idx)
{
	return common_test_node(topo_eval, node_idx);
}

extern int topology_p_whole_topo(bitstr_t *node_mask, void *tctx)
{
	return SLURM_SUCCESS;
}

/*
 * cons_tres calls this right after it built the job's allocation
 * (job_test.c, after dist_tasks, still under the job write lock). For the
 * job of the last TOFA node choice the recorded placement is fitted to the
 * CPUs granted, so that srun's step fits. Node ranks: none (node table
 * order, i.e. the torus snake order); the task order is the placement's,
 * applied by cli_filter/tofa.
 */
extern int topology_p_get_rank(bitstr_t *node_bitmap, uint32_t **node_rank,
			       uint32_t *size, void *tctx)
{
	job_record_t *job_ptr = last_tofa_job_id ?
				find_job_record(last_tofa_job_id) : NULL;

	*node_rank = NULL;
	*size = 0;
	last_tofa_job_id = 0;
	if (job_ptr && job_ptr->job_resrcs &&
	    job_ptr->job_resrcs->node_bitmap == node_bitmap)
		_place_on_allocation(job_ptr, last_place_anew);
	last_place_anew = false;
	return SLURM_SUCCESS;
}

extern bitstr_t *topology_p_get_bitmap(char *name)
{
	return NULL;
}

extern bool topology_p_generate_node_ranking(topology_ctx_t *tctx)
{
	return tofa_topo_generate_ranking();
}

extern int topology_p_get_node_addr(char *node_name, char **paddr,
				    char **ppattern, void *tctx)
{
	return common_topo_get_node_addr(node_name, paddr, ppattern);
}

extern int topology_p_split_hostlist(hostlist_t *hl, hostlist_t ***sp_hl,
				     int *count, uint16_t tree_width,
				     void *tctx)
{
	return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
						    tree_width);
}

extern int topology_p_get(topology_data_t type, void *data, void *tctx)
{
	switch (type) {
	case TOPO_DATA_TOPOLOGY_PTR:
	{
		dynamic_plugin_data_t **topoinfo_pptr = data;

		*topoinfo_pptr = xmalloc(sizeof(dynamic_plugin_data_t));
		(*topoinfo_pptr)->data = NULL;
		(*topoinfo_pptr)->plugin_id = plugin_id;
		break;
	}
	case TOPO_DATA_REC_CNT:
		*(int *) data = 0;
		break;
	case TOPO_DATA_EXCLUSIVE_TOPO:
		*(int *) data = 0;
		break;
	default:
		error("%s: %s: unsupported option %d", plugin_type, __func__,
		      type);
	}
	return SLURM_SUCCESS;
}

extern int topology_p_topoinfo_free(void *topoinfo_ptr)
{
	return SLURM_SUCCESS;
}

extern int topology_p_topoinfo_pack(void *topoinfo_ptr, buf_t *buffer,
				    uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern int topology_p_topoinfo_print(void *topoinfo_ptr, char *nodes_list,
				     char *unit, char **out)
{
	*out = NULL;
	return SLURM_SUCCESS;
}

extern int topology_p_topoinfo_unpack(void **topoinfo_pptr, buf_t *buffer,
				      uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern void topology_p_jobinfo_free(void *topo_jobinfo)
{
}

extern void topology_p_jobinfo_pack(void *topo_jobinfo, buf_t *buffer,
				    uint16_t protocol_version)
{
}

extern int topology_p_jobinfo_unpack(void **topo_jobinfo, buf_t *buffer,
				     uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern int topology_p_jobinfo_get(topology_jobinfo_type_t type,
				  void *topo_jobinfo, void *data)
{
	return ESLURM_NOT_SUPPORTED;
}

extern uint32_t topology_p_get_fragmentation(bitstr_t *node_mask)
{
	return 0;
}

extern void topology_p_get_topology_str(node_record_t *node_ptr,
					char **topology_str_ptr,
					topology_ctx_t *tctx)
{
}

#else
/* ------------------------------- Slurm 24.11 ------------------------------ */

extern int topology_p_build_config(void)
{
	return SLURM_SUCCESS;
}

extern int topology_p_whole_topo(bitstr_t *node_mask)
{
	return SLURM_SUCCESS;
}

extern bitstr_t *topology_p_get_bitmap(char *name)
{
	return NULL;
}

extern bool topology_p_generate_node_ranking(void)
{
	return tofa_topo_generate_ranking();
}

extern int topology_p_get_node_addr(char *node_name, char **paddr,
				    char **ppattern)
{
	return common_topo_get_node_addr(node_name, paddr, ppattern);
}

extern int topology_p_split_hostlist(hostlist_t *hl, hostlist_t ***sp_hl,
				     int *count, uint16_t tree_width)
{
	return common_topo_split_hostlist_treewidth(hl, sp_hl, count,
						    tree_width);
}

extern int topology_p_topology_free(void *topoinfo_ptr)
{
	return SLURM_SUCCESS;
}

extern int topology_p_get(topology_data_t type, void *data)
{
	return SLURM_SUCCESS;
}

extern int topology_p_topology_pack(void *topoinfo_ptr, buf_t *buffer,
				    uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern int topology_p_topology_print(void *topoinfo_ptr, char *nodes_list,
				     char **out)
{
	*out = NULL;
	return SLURM_SUCCESS;
}

extern int topology_p_topology_unpack(void **topoinfo_pptr, buf_t *buffer,
				      uint16_t protocol_version)
{
	return SLURM_SUCCESS;
}

extern uint32_t topology_p_get_fragmentation(bitstr_t *node_mask)
{
	return 0;
}
#endif
