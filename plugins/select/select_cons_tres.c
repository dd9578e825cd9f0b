/*
 * select/cons_tres with TOFA placements (the seed's "Fault Aware Node
 * Selection"): a shim that Slurm loads as select/cons_tres itself.
 *
 * Installed as select_cons_tres.so in a directory of its own that comes
 * first in PluginDir ("PluginDir=/usr/local/lib/tofa/slurm/select:..."),
 * with the plugin_type and plugin_id of cons_tres: Slurm loads the first
 * select_cons_tres.so on PluginDir, so SelectType stays select/cons_tres and
 * everything Slurm keys on that name or id (CoreCnt reservations, shared
 * GRES, MaxNodeCount, dynamic nodes, slurmd's core accounting) works as
 * with cons_tres. The shim dlopen()s the next select_cons_tres.so on
 * PluginDir, Slurm's own, and forwards to it. Leaving the directory off
 * PluginDir switches TOFA node choice off; nothing else changes.
 *
 * Every select_p_* call is forwarded to select/cons_tres (the in-tree
 * precedent is select/other). The one exception: select_p_job_test in
 * SELECT_MODE_RUN_NOW for a job whose spank environment carries
 * TOFA_GRAPH_ID (set by tofa_loadmatrix) and that did not pin its nodes:
 *   1. node choice: the nodes cons_tres may use (the bitmap, in node table
 *      order, which topology/tofa ranks along the torus), each with the
 *      tasks its idle CPUs can take, are the candidates of TOFA's node
 *      choice (tofa_service_choose_nodes_from: a compact box of fault-free nodes,
 *      linear time, no strategy runs under slurmctld's locks; skipped when
 *      they cannot hold the job's tasks);
 *   2. cons_tres runs on exactly the chosen nodes; if that fails, or
 *      anything before it, plain cons_tres decides and the reason is logged;
 *   3. once cons_tres allocated, the recorded placement is fitted to the
 *      CPUs granted (every node 1 to CPUs / CPUs per task tasks) and the
 *      job's strategy is queued to order its tasks on the allocation
 *      outside the locks (tofa_service_map_later); srun inside the
 *      allocation waits for that order (PlacementWait) and lays out its
 *      step from it, so the step always fits what Slurm granted.
 * Jobs without a graph get exactly what cons_tres gives them.

 */
#define _GNU_SOURCE /* dladdr */
#include "common/slurm_config.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/bitstring.h"
#include "src/common/job_resources.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/select.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "capi/tofa_service.h"
#include "common/tofa_glue.h"
#include "common/tofa_job.h"

const char plugin_name[] = "Consumable Resources (CR) Node Selection plugin with TOFA placements";
const char plugin_type[] = "select/cons_tres";
const uint32_t plugin_id = SELECT_PLUGIN_CONS_TRES;
/* What our log lines start with (plugin_type is Slurm's own name). */
static const char log_prefix[] = "select/cons_tres+tofa";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* In the order of slurm_select_ops_t (src/common/select.h). */
static const char *cons_syms[] = {
	"plugin_id",
	"select_p_state_save",
	"select_p_state_restore",
	"select_p_job_init",
	"select_p_node_init",
	"select_p_job_test",
	"select_p_job_begin",
	"select_p_job_ready",
	"select_p_job_expand",
	"select_p_job_resized",
	"select_p_job_signal",
	"select_p_job_fini",
	"select_p_job_suspend",
	"select_p_job_resume",
	"select_p_step_pick_nodes",
	"select_p_step_start",
	"select_p_step_finish",
	"select_p_select_nodeinfo_pack",
	"select_p_select_nodeinfo_unpack",
	"select_p_select_nodeinfo_alloc",
	"select_p_select_nodeinfo_free",
	"select_p_select_nodeinfo_set_all",
	"select_p_select_nodeinfo_set",
	"select_p_select_nodeinfo_get",
	"select_p_select_jobinfo_alloc",
	"select_p_select_jobinfo_free",
	"select_p_select_jobinfo_set",
	"select_p_select_jobinfo_get",
	"select_p_select_jobinfo_copy",
	"select_p_select_jobinfo_pack",
	"select_p_select_jobinfo_unpack",
	"select_p_select_jobinfo_sprint",
	"select_p_select_jobinfo_xstrdup",
	"select_p_get_info_from_plugin",
	"select_p_update_node_config",
	"select_p_reconfigure",
	"select_p_resv_test",
};

static slurm_select_ops_t cons;
static bool cons_ready = false;
static bool cons_initialized_by_us = false;
static void *cons_handle = NULL;
static pthread_mutex_t cons_lock = PTHREAD_MUTEX_INITIALIZER;

/* dlopen()s Slurm's own select_cons_tres.so: the first on PluginDir that is
 * not this file. A copy already loaded is used as it is (whoever loaded it
 * ran its init()); else it is loaded and its init() called here. */
static void *_open_cons_tres(void)
{
	char *dirs = xstrdup(slurm_conf.plugindir), *save = NULL, *dir;
	char path[PATH_MAX], self[PATH_MAX] = "", real[PATH_MAX];
	void *handle = NULL;
	Dl_info info;

	if (dladdr(&plugin_id, &info) && info.dli_fname &&
	    !realpath(info.dli_fname, self))
		self[0] = '\0';
	for (dir = strtok_r(dirs, ":", &save); dir && !handle;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof(path), "%s/select_cons_tres.so", dir);
		if (!realpath(path, real) || !strcmp(real, self))
			continue;
		if (!(handle = dlopen(real, RTLD_LAZY | RTLD_NOLOAD)) &&
		    (handle = dlopen(real, RTLD_LAZY))) {
			int (*cons_init)(void) =
				(int (*)(void)) dlsym(handle, "init");
			if (!cons_init || cons_init() != SLURM_SUCCESS) {
				error("%s: %s: init() of %s failed",
				      log_prefix, __func__, real);
				dlclose(handle);
				handle = NULL;
				break;
			}
			cons_initialized_by_us = true;
		}
	}
	xfree(dirs);
	return handle;
}

/* The cons_tres operations, resolved on first use; NULL (logged) if absent. */
static slurm_select_ops_t *_cons(void)
{
	void **slot = (void **) &cons;

	if (cons_ready)
		return &cons;
	slurm_mutex_lock(&cons_lock);
	if (!cons_ready) {
		if (!cons_handle)
			cons_handle = _open_cons_tres();
		if (!cons_handle) {
			error("%s: %s: no select_cons_tres.so of Slurm's own besides this one in PluginDir=%s",
			      log_prefix, __func__, slurm_conf.plugindir);
		} else {
			bool all = true;
			for (size_t i = 0; i < ARRAY_SIZE(cons_syms); i++) {
				slot[i] = dlsym(cons_handle, cons_syms[i]);
				if (!slot[i]) {
					error("%s: %s: select_cons_tres.so lacks %s",
					      log_prefix, __func__,
					      cons_syms[i]);
					all = false;
				}
			}
			cons_ready = all;
		}
	}
	slurm_mutex_unlock(&cons_lock);
	return cons_ready ? &cons : NULL;
}

#define CONS_OR(fail) \
	slurm_select_ops_t *ops = _cons(); \
	if (!ops) \
		return fail

extern int init(void)
{
	verbose("%s: %s loaded", log_prefix, __func__);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	if (cons_initialized_by_us && cons_handle) {
		int (*cons_fini)(void) = (int (*)(void)) dlsym(cons_handle, "fini");
		if (cons_fini)
			cons_fini();
	}
	cons_ready = false;
	cons_initialized_by_us = false;
	cons_handle = NULL;
	return SLURM_SUCCESS;
}

/* ---- TOFA placement ------------------------------------------------------ */

/* The tasks each node of `bitmap` can take now (tofa_job_candidates): its
 * idle CPUs (whole idle nodes only for --exclusive). With -N, at most an
 * even share per node (tofa_spread_task_limits) so that the placement spans
 * -N nodes, and only the nodes with room for that share while there are
 * enough of them. NULL when no node can take a task; *room receives the sum
 * of the limits. */
static unsigned *_free_task_slots(job_record_t *job_ptr, bitstr_t *bitmap,
				  uint32_t min_nodes, uint64_t *room)
{
	struct job_details *details = job_ptr->details;
	bool whole = details && (details->whole_node == 1 || !details->share_res);
	uint32_t *free_cpus = xcalloc(node_record_count, sizeof(*free_cpus));
	node_record_t *node_ptr;
	unsigned *list;

	select_g_select_nodeinfo_set_all();
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		uint16_t alloc_cpus = 0;

		if (i >= bit_size(bitmap) || !bit_test(bitmap, i))
			continue;
		select_g_select_nodeinfo_get(node_ptr->select_nodeinfo,
					     SELECT_NODEDATA_SUBCNT,
					     NODE_STATE_ALLOCATED, &alloc_cpus);
		if ((whole && alloc_cpus) || node_ptr->cpus_efctv <= alloc_cpus)
			continue;
		free_cpus[i] = node_ptr->cpus_efctv - alloc_cpus;
	}
	list = tofa_job_candidates(job_ptr, free_cpus, min_nodes, room);
	xfree(free_cpus);
	return list;
}

/* The job's allocation as tofa_job_map_later takes it: the tasks each node
 * may run (indexed like the node table), 1 to its CPUs granted / CPUs per
 * task. cons_tres may grant fewer CPUs than tasks x --cpus-per-task (28
 * CPUs on 8, 8, 8 and 4 for -n 10 -c 3); Slurm's step then puts at most
 * CPUs / -c rounded up on a node (3, 3, 2, 2), and so do the limits; a task
 * per CPU when even that falls short (srun does not inherit -c on 22.05).
 * NULL without job resources; xfree it otherwise. */
static unsigned *_allocation(job_record_t *job_ptr)
{
	job_resources_t *res = job_ptr->job_resrcs;
	uint32_t tasks = job_ptr->details ? job_ptr->details->num_tasks : 0;
	unsigned *limit;

	if (!res || !res->node_bitmap || !res->cpus)
		return NULL;
	limit = xcalloc(node_record_count, sizeof(*limit));
	/* 0: CPUs / -c, 1: rounded up, 2: a task per CPU */
	for (int level = 0; level < 3; level++) {
		node_record_t *node_ptr;
		uint64_t room = 0;
		uint32_t n = 0;

		for (int i = 0; (node_ptr = next_node(&i)) && n < res->nhosts;
		     i++) {
			if (i >= bit_size(res->node_bitmap) ||
			    !bit_test(res->node_bitmap, i))
				continue;
			limit[i] = level == 0 ? tofa_job_task_limit(job_ptr, res->cpus[n]) :
				level == 1 ? tofa_job_task_limit(job_ptr, res->cpus[n] +
						tofa_job_cpus_per_task(job_ptr) - 1) :
					     res->cpus[n];
			limit[i] = MAX(limit[i], 1);
			room += limit[i];
			n++;
		}
		if (room >= tasks || tofa_job_cpus_per_task(job_ptr) <= 1)
			break;
	}
	return limit;
}

/* The tasks cons_tres's allocation of the job can run: on each node its
 * CPUs / --cpus-per-task, at most --ntasks-per-node. */
static uint64_t _allocation_task_room(job_record_t *job_ptr)
{
	job_resources_t *res = job_ptr->job_resrcs;
	uint64_t room = 0;

	if (!res || !res->cpus)
		return 0;
	for (uint32_t n = 0; n < res->nhosts; n++)
		room += tofa_job_task_limit(job_ptr, res->cpus[n]);
	return room;
}

/* Records the job's placement on what cons_tres granted: its nodes and, on
 * each, the tasks its CPUs allow, so that srun's step always fits.
 * `allocation` is _allocation(job_ptr) (freed here). */
static void _place_on_allocation(job_record_t *job_ptr, const char *graph_id,
				 unsigned *allocation)
{
	char err[1024];
	bitstr_t *nodes = NULL;

	if (!allocation)
		snprintf(err, sizeof(err), "cons_tres left no job resources");
	else if ((nodes = tofa_job_choose_from(job_ptr, graph_id, allocation, 1, 0, 0,
					       err, sizeof(err))) &&
		 tofa_job_map_later(job_ptr, allocation, err, sizeof(err)) != TOFA_OK)
		FREE_NULL_BITMAP(nodes);
	if (!nodes) {
		error("%s: %s: job %u: no TOFA mapping on its allocation of %u nodes: %s; srun uses Slurm's layout",
		      log_prefix, __func__, job_ptr->job_id,
		      job_ptr->job_resrcs ? job_ptr->job_resrcs->nhosts : 0, err);
		tofa_job_forget(job_ptr);
	}
	FREE_NULL_BITMAP(nodes);
	xfree(allocation);
}

/* The node choice's placement, already recorded, moved by the fewest tasks
 * to meet the allocation's limits (cons_tres may grant a node fewer CPUs
 * than the placement gave it tasks); a new placement if that fails. */
static void _fit_to_allocation(job_record_t *job_ptr, const char *graph_id)
{
	char err[1024];
	unsigned *allocation = _allocation(job_ptr);

	if (allocation &&
	    tofa_job_map_later(job_ptr, allocation, err, sizeof(err)) == TOFA_OK) {
		xfree(allocation);
		return;
	}
	_place_on_allocation(job_ptr, graph_id, allocation);
}

/* TOFA chooses the nodes among those with free CPUs; cons_tres allocates
 * exactly those, or when it cannot (memory, GRES, licenses, ...) chooses
 * itself. Either way the recorded placement is computed on the allocation. */
/* long: cons_tres asked for TOFA's nodes, then for its own choice, logging each outcome. */
static int _tofa_job_test(slurm_select_ops_t *ops, job_record_t *job_ptr,
			  const char *graph_id, bitstr_t *bitmap,
			  uint32_t min_nodes, uint32_t max_nodes,
			  uint32_t req_nodes, uint16_t mode,
			  List preemptee_candidates, List *preemptee_job_list,
			  bitstr_t *exc_core_bitmap)
{
	char err[1024] = "";
	unsigned *free_slots = NULL;
	bitstr_t *wanted = NULL, *restricted = NULL;
	/* where the time goes, logged per started job: candidates, node
	 * choice, cons_tres on the chosen nodes, the mapping request */
	double start = tofa_now_ms(), placed_in = 0, slots_in = 0, cons_in = 0, fit_in;
	uint64_t room = 0;
	uint32_t count, tasks = job_ptr->details ? job_ptr->details->num_tasks : 0;
	uint32_t place_min = min_nodes, place_max = max_nodes;
	int rc;

	if (!tofa_service_running()) {
		snprintf(err, sizeof(err), "the TOFA service is not running");
		rc = ops->job_test(job_ptr, bitmap, min_nodes, max_nodes,
				   req_nodes, mode, preemptee_candidates,
				   preemptee_job_list, exc_core_bitmap);
		if (rc == SLURM_SUCCESS)
			info("%s: %s: job %u: %s; cons_tres chose its nodes and srun uses Slurm's layout",
			     log_prefix, __func__, job_ptr->job_id, err);
		return rc;
	}
	tofa_job_node_bounds(job_ptr, &place_min, &place_max);
	free_slots = _free_task_slots(job_ptr, bitmap, place_min, &room);
	slots_in = tofa_now_ms() - start;
	if (room < tasks && !preemptee_candidates) {
		/* Too few free CPUs: cons_tres will say so without a placement. */
		snprintf(err, sizeof(err), "%" PRIu64 " free task slots for %u tasks",
			 room, tasks);
		xfree(free_slots);
		goto fallback;
	}
	placed_in = tofa_now_ms();
	wanted = tofa_job_choose_from(job_ptr, graph_id, free_slots, 0, place_min, place_max,
			err, sizeof(err));
	placed_in = tofa_now_ms() - placed_in;
	xfree(free_slots);
	if (!wanted)
		goto fallback;
	count = bit_set_count(wanted);
	if (count < min_nodes || (max_nodes && count > max_nodes)) {
		snprintf(err, sizeof(err),
			 "the placement uses %u nodes, the job asks for %u-%u",
			 count, min_nodes, max_nodes);
		goto fallback;
	}
	restricted = bit_copy(bitmap);
	bit_and(restricted, wanted);
	cons_in = tofa_now_ms();
	rc = ops->job_test(job_ptr, restricted, count, count, count, mode,
			   preemptee_candidates, preemptee_job_list,
			   exc_core_bitmap);
	cons_in = tofa_now_ms() - cons_in;
	/*
	 * On nodes whose free CPUs hold the job exactly, cons_tres may spread
	 * the CPUs its own way (an odd count on a node with -c 2: 7, 6, 4, 8, 6
	 * for 16 tasks of 2 CPUs), and then no step of the job fits: let
	 * cons_tres choose among all the candidates instead.
	 */
	if (rc == SLURM_SUCCESS && mode == SELECT_MODE_RUN_NOW &&
	    (room = _allocation_task_room(job_ptr)) < tasks) {
		snprintf(err, sizeof(err),
			 "cons_tres's CPUs on the placement's nodes hold %" PRIu64 " of the %u tasks",
			 room, tasks);
		if (preemptee_job_list)
			FREE_NULL_LIST(*preemptee_job_list);
		goto fallback;
	}
	if (rc == SLURM_SUCCESS) {
		bit_clear_all(bitmap);
		bit_or(bitmap, restricted);
		fit_in = tofa_now_ms();
		_fit_to_allocation(job_ptr, graph_id);
		fit_in = tofa_now_ms() - fit_in;
		info("%s: %s: job %u: TOFA chose its %u nodes (%.3f ms, of which node choice %.3f ms; candidates %.3f, cons_tres %.3f, mapping request %.3f)",
		     log_prefix, __func__, job_ptr->job_id, count,
		     tofa_now_ms() - start, placed_in, slots_in, cons_in, fit_in);
		FREE_NULL_BITMAP(wanted);
		FREE_NULL_BITMAP(restricted);
		return rc;
	}
	snprintf(err, sizeof(err),
		 "cons_tres cannot allocate the placement's nodes now");
	if (preemptee_job_list)
		FREE_NULL_LIST(*preemptee_job_list);

fallback:
	FREE_NULL_BITMAP(wanted);
	FREE_NULL_BITMAP(restricted);
	rc = ops->job_test(job_ptr, bitmap, min_nodes, max_nodes, req_nodes,
			   mode, preemptee_candidates, preemptee_job_list,
			   exc_core_bitmap);
	if (rc == SLURM_SUCCESS) {
		info("%s: %s: job %u: %s; cons_tres chose its nodes",
		     log_prefix, __func__, job_ptr->job_id, err);
		_place_on_allocation(job_ptr, graph_id, _allocation(job_ptr));
	} else {
		debug("%s: %s: job %u: %s; cons_tres cannot run it now either",
		      log_prefix, __func__, job_ptr->job_id, err);
	}
	return rc;
}

/* One node choice of tofa_job_healthy_first: the job's test on `nodes`,
 * which replace the candidates when it succeeds; rc is the last test's
 * (Slurm tells a busy cluster from an impossible request by it). */
struct tofa_test_args {
	slurm_select_ops_t *ops;
	job_record_t *job_ptr;
	const char *graph_id;
	bitstr_t *bitmap;
	uint32_t min_nodes, max_nodes, req_nodes;
	uint16_t mode;
	List preemptee_candidates;
	List *preemptee_job_list;
	bitstr_t *exc_core_bitmap;
	int rc;
};

static int _tofa_test_on(bitstr_t *nodes, void *arg)
{
	struct tofa_test_args *a = arg;
	int rc = a->rc = _tofa_job_test(a->ops, a->job_ptr, a->graph_id, nodes,
				a->min_nodes, a->max_nodes, a->req_nodes, a->mode,
				a->preemptee_candidates, a->preemptee_job_list,
				a->exc_core_bitmap);

	if (rc == SLURM_SUCCESS && nodes != a->bitmap) {
		bit_clear_all(a->bitmap);
		bit_or(a->bitmap, nodes);
	}
	return rc;
}

extern int select_p_job_test(job_record_t *job_ptr, bitstr_t *bitmap,
			     uint32_t min_nodes, uint32_t max_nodes,
			     uint32_t req_nodes, uint16_t mode,
			     List preemptee_candidates,
			     List *preemptee_job_list,
			     bitstr_t *exc_core_bitmap)
{
	const char *graph_id = NULL;
	CONS_OR(SLURM_ERROR);

	if (mode == SELECT_MODE_RUN_NOW && job_ptr && bitmap)
		graph_id = tofa_job_graph(job_ptr);
	if (!graph_id)
		return ops->job_test(job_ptr, bitmap, min_nodes, max_nodes,
				     req_nodes, mode, preemptee_candidates,
				     preemptee_job_list, exc_core_bitmap);
	struct tofa_test_args args = {
		ops, job_ptr, graph_id, bitmap, min_nodes, max_nodes,
		req_nodes, mode, preemptee_candidates, preemptee_job_list,
		exc_core_bitmap, SLURM_ERROR };
	tofa_job_healthy_first(job_ptr, bitmap, _tofa_test_on, &args);
	return args.rc;
}

/* ---- plain forwarding ---------------------------------------------------- */

extern int select_p_state_save(char *dir_name)
{
	CONS_OR(SLURM_ERROR);
	return ops->state_save(dir_name);
}

extern int select_p_state_restore(char *dir_name)
{
	CONS_OR(SLURM_ERROR);
	return ops->state_restore(dir_name);
}

extern int select_p_job_init(List job_list)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_init(job_list);
}

extern int select_p_node_init(void)
{
	CONS_OR(SLURM_ERROR);
	return ops->node_init();
}

/* A job array task is tested under the array's job id and split off with
 * its own id only after (job_array_post_sched): its placement follows it. */
static void _follow_array_split(job_record_t *job_ptr)
{
	char err[256];

	if (job_ptr->array_task_id == NO_VAL || !job_ptr->array_job_id ||
	    job_ptr->array_job_id == job_ptr->job_id ||
	    !tofa_job_env(job_ptr, TOFA_ENV_GRAPH_ID) || !tofa_service_running())
		return;
	if (tofa_service_move_placement(job_ptr->array_job_id, job_ptr->job_id,
					err, sizeof(err)) != TOFA_OK)
		debug("%s: %s: %pJ: %s", log_prefix, __func__, job_ptr, err);
}

extern int select_p_job_begin(job_record_t *job_ptr)
{
	CONS_OR(SLURM_ERROR);
	_follow_array_split(job_ptr);
	return ops->job_begin(job_ptr);
}

extern int select_p_job_ready(job_record_t *job_ptr)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_ready(job_ptr);
}

extern int select_p_job_expand(job_record_t *from_job_ptr,
			       job_record_t *to_job_ptr)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_expand(from_job_ptr, to_job_ptr);
}

extern int select_p_job_resized(job_record_t *job_ptr, node_record_t *node_ptr)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_resized(job_ptr, node_ptr);
}

extern int select_p_job_signal(job_record_t *job_ptr, int signal)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_signal(job_ptr, signal);
}

extern int select_p_job_fini(job_record_t *job_ptr)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_fini(job_ptr);
}

extern int select_p_job_suspend(job_record_t *job_ptr, bool indf_susp)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_suspend(job_ptr, indf_susp);
}

extern int select_p_job_resume(job_record_t *job_ptr, bool indf_susp)
{
	CONS_OR(SLURM_ERROR);
	return ops->job_resume(job_ptr, indf_susp);
}

extern bitstr_t *select_p_step_pick_nodes(job_record_t *job_ptr,
					  select_jobinfo_t *jobinfo,
					  uint32_t node_count,
					  bitstr_t **avail_nodes)
{
	CONS_OR(NULL);
	return ops->step_pick_nodes(job_ptr, jobinfo, node_count, avail_nodes);
}

extern int select_p_step_start(step_record_t *step_ptr)
{
	CONS_OR(SLURM_ERROR);
	return ops->step_start(step_ptr);
}

extern int select_p_step_finish(step_record_t *step_ptr, bool killing_step)
{
	CONS_OR(SLURM_ERROR);
	return ops->step_finish(step_ptr, killing_step);
}

extern int select_p_select_nodeinfo_pack(select_nodeinfo_t *nodeinfo,
					 buf_t *buffer,
					 uint16_t protocol_version)
{
	CONS_OR(SLURM_ERROR);
	return ops->nodeinfo_pack(nodeinfo, buffer, protocol_version);
}

extern int select_p_select_nodeinfo_unpack(select_nodeinfo_t **nodeinfo,
					   buf_t *buffer,
					   uint16_t protocol_version)
{
	CONS_OR(SLURM_ERROR);
	return ops->nodeinfo_unpack(nodeinfo, buffer, protocol_version);
}

extern select_nodeinfo_t *select_p_select_nodeinfo_alloc(void)
{
	CONS_OR(NULL);
	return ops->nodeinfo_alloc();
}

extern int select_p_select_nodeinfo_free(select_nodeinfo_t *nodeinfo)
{
	CONS_OR(SLURM_ERROR);
	return ops->nodeinfo_free(nodeinfo);
}

extern int select_p_select_nodeinfo_set_all(void)
{
	CONS_OR(SLURM_ERROR);
	return ops->nodeinfo_set_all();
}

extern int select_p_select_nodeinfo_set(job_record_t *job_ptr)
{
	CONS_OR(SLURM_ERROR);
	return ops->nodeinfo_set(job_ptr);
}

extern int select_p_select_nodeinfo_get(select_nodeinfo_t *nodeinfo,
					enum select_nodedata_type dinfo,
					enum node_states state, void *data)
{
	CONS_OR(SLURM_ERROR);
	return ops->nodeinfo_get(nodeinfo, dinfo, state, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_alloc(void)
{
	CONS_OR(NULL);
	return ops->jobinfo_alloc();
}

extern int select_p_select_jobinfo_free(select_jobinfo_t *jobinfo)
{
	CONS_OR(SLURM_ERROR);
	return ops->jobinfo_free(jobinfo);
}

extern int select_p_select_jobinfo_set(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	CONS_OR(SLURM_ERROR);
	return ops->jobinfo_set(jobinfo, data_type, data);
}

extern int select_p_select_jobinfo_get(select_jobinfo_t *jobinfo,
				       enum select_jobdata_type data_type,
				       void *data)
{
	CONS_OR(SLURM_ERROR);
	return ops->jobinfo_get(jobinfo, data_type, data);
}

extern select_jobinfo_t *select_p_select_jobinfo_copy(select_jobinfo_t *jobinfo)
{
	CONS_OR(NULL);
	return ops->jobinfo_copy(jobinfo);
}

extern int select_p_select_jobinfo_pack(select_jobinfo_t *jobinfo,
					buf_t *buffer,
					uint16_t protocol_version)
{
	CONS_OR(SLURM_ERROR);
	return ops->jobinfo_pack(jobinfo, buffer, protocol_version);
}

extern int select_p_select_jobinfo_unpack(select_jobinfo_t **jobinfo_pptr,
					  buf_t *buffer,
					  uint16_t protocol_version)
{
	CONS_OR(SLURM_ERROR);
	return ops->jobinfo_unpack(jobinfo_pptr, buffer, protocol_version);
}

extern char *select_p_select_jobinfo_sprint(select_jobinfo_t *jobinfo,
					    char *buf, size_t size, int mode)
{
	CONS_OR(NULL);
	return ops->jobinfo_sprint(jobinfo, buf, size, mode);
}

extern char *select_p_select_jobinfo_xstrdup(select_jobinfo_t *jobinfo,
					     int mode)
{
	CONS_OR(NULL);
	return ops->jobinfo_xstrdup(jobinfo, mode);
}

extern int select_p_get_info_from_plugin(enum select_plugindata_info dinfo,
					 job_record_t *job_ptr, void *data)
{
	CONS_OR(SLURM_ERROR);
	return ops->get_info_from_plugin(dinfo, job_ptr, data);
}

extern int select_p_update_node_config(int index)
{
	CONS_OR(SLURM_ERROR);
	return ops->update_node_config(index);
}

extern int select_p_reconfigure(void)
{
	CONS_OR(SLURM_ERROR);
	return ops->reconfigure();
}

extern bitstr_t *select_p_resv_test(resv_desc_msg_t *resv_desc_ptr,
				    uint32_t node_cnt, bitstr_t *avail_bitmap,
				    bitstr_t **core_bitmap)
{
	CONS_OR(NULL);
	return ops->resv_test(resv_desc_ptr, node_cnt, avail_bitmap,
			      core_bitmap);
}
