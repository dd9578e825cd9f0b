/*
 * cli_filter/tofa - turns a TOFA placement into srun's task layout.
 *
 * Active when the command's environment has TOFA_GRAPH_ID (exported by the
 * tofa_loadmatrix SPANK plugin while it parsed --tofa-matrix, just before
 * this filter runs).
 *
 * srun: the graph's task count must equal --ntasks (-n defaults to it; an
 * srun in a job that only inherited the job's graph and runs a step of
 * another size is left to Slurm). The
 * placement is
 *   - inside an allocation (SLURM_JOB_ID): the one recorded for the job by
 *     tofa's select shim (on every node of the allocation, within the
 *     CPUs granted), else one computed on the allocation's nodes within
 *     their CPUs;
 *   - a direct srun: this filter submits the job itself and waits until it
 *     runs (cli_filter_allocation.c), so that the select shim places it at
 *     scheduling time as an sbatch job; srun then runs the step in that
 *     allocation, laid out as above. A heterogeneous direct srun (or
 *     --test-only) gets one computed now on the nodes' free CPUs (or on -w
 *     nodes), spanning at least -N nodes, pinned with its node list.
 * Then --nodelist becomes the ordered node list (task i -> node i, repeats
 * allowed) with an arbitrary distribution, so task i runs on node T(i).
 *
 * sbatch/salloc: only the task count is checked (or set); the placement is
 * made at scheduling time by tofa's select shim.
 *
 * With Slurm patched by patches/slurm-22.05-distribution-tofa.patch,
 * --distribution=TOFA reaches this filter as an arbitrary distribution with
 * the SLURM_DIST_TOFA marker: it requires a graph, then everything is done
 * as for --tofa-matrix alone, and the marker is cleared so the request that
 * leaves the client is the same (unpatched daemons never see the bit).
 */
#include "common/slurm_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#include "src/interfaces/cli_filter.h"
#else
#include "src/common/cli_filter.h"
#endif
#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/slurm_opt.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "capi/tofa_service.h"
#include "common/slurm_compat.h"
#include "cli_filter_allocation.h"
#include "common/tofa_glue.h"

/* The marker the TOFA patch defines in src/common/proc_args.h; the plugin
 * builds against an unpatched tree, where stock Slurm never sets the bit. */
#ifndef SLURM_DIST_TOFA
#define SLURM_DIST_TOFA 0x100000
#endif

const char plugin_name[] = "cli_filter tofa plugin (TOFA task layout)";
const char plugin_type[] = "cli_filter/tofa";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

extern int init(void)
{
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	return SLURM_SUCCESS;
}

extern int cli_filter_p_setup_defaults(slurm_opt_t *opt, bool early)
{
	(void) opt;
	(void) early;
	return SLURM_SUCCESS;
}

/* A direct srun's placement (computed before its job had an id), recorded
 * in post_submit once it has one. */
static char *direct_graph_id, *direct_placement;

extern void cli_filter_p_post_submit(int offset, uint32_t jobid,
				     uint32_t stepid)
{
	char err[1024], host[256], munge_socket[1024], *conf;
	(void) stepid;

	if (offset != 0 || !direct_placement)
		return;
	conf = tofa_glue_conf_path();
	tofa_glue_service_host(conf, host, sizeof(host));
	tofa_glue_munge_socket(munge_socket, sizeof(munge_socket));
	if (tofa_client_record_placement(conf, host, munge_socket,
					 direct_graph_id, jobid,
					 getenv(TOFA_ENV_STRATEGY),
					 direct_placement, err,
					 sizeof(err)) != TOFA_OK)
		error("%s: job %u's placement is not recorded: %s",
		      plugin_type, jobid, err);
	free(conf);
	xfree(direct_graph_id);
	xfree(direct_placement);
}

/* Number of names in a comma list. */
static int _count_names(const char *list)
{
	int count = list && *list ? 1 : 0;

	for (const char *c = list; c && *c; c++)
		if (*c == ',')
			count++;
	return count;
}

/* -N MIN-MAX given on the command line (inside a job SLURM_NNODES sets
 * it too, and srun drops that for an arbitrary layout): 0, 0 otherwise. */
static void _node_count(slurm_opt_t *opt, int *min_nodes, int *max_nodes)
{
	bool given = opt->nodes_set && !slurm_option_set_by_env(opt, 'N');

	*min_nodes = given && opt->min_nodes > 0 ? opt->min_nodes : 0;
	*max_nodes = given && opt->max_nodes > 0 ? opt->max_nodes : 0;
}

/* The most tasks of this srun a node with `cpus` free CPUs may run:
 * CPUs / --cpus-per-task (unbounded with --overcommit), at most
 * --ntasks-per-node, and at most ceil(ntasks / -N) so that the placement
 * spans the nodes -N asks for. */
static int _task_limit(slurm_opt_t *opt, int cpus)
{
	unsigned per_task = opt->cpus_set && opt->cpus_per_task > 0 ?
			    opt->cpus_per_task : 1;
	unsigned per_node = opt->ntasks_per_node > 0 &&
			    opt->ntasks_per_node != (int) NO_VAL ?
			    opt->ntasks_per_node : 0;
	int limit = tofa_task_limit(cpus > 0 ? cpus : 0, per_task, per_node,
				    opt->overcommit);
	int min_nodes, max_nodes;

	_node_count(opt, &min_nodes, &max_nodes);
	if (min_nodes > 1) {
		int spread = (opt->ntasks + min_nodes - 1) / min_nodes;
		if (limit > spread)
			limit = spread;
	}
	return limit;
}

static void _add_limit(char **list, const char *name, int limit)
{
	if (limit > 0)
		xstrfmtcat(*list, "%s%s:%d", *list ? "," : "", name, limit);
}

/* Schedulable nodes with free CPUs, in slurmctld's node order (topology/tofa
 * ranks it along the torus), each with the tasks it can take
 * ("t1:8,t3:5"), and into *all every schedulable node with all its CPUs
 * (where the job queues, as it would without TOFA, when the free CPUs
 * cannot hold it). Both xmalloc'ed; the free list is NULL when the free
 * CPUs are too few. */
static char *_free_nodes(slurm_opt_t *opt, char **all)
{
	node_info_msg_t *info = NULL;
	char *free_list = NULL, *all_list = NULL;
	long room = 0;

	if (slurm_load_node((time_t) 0, &info, SHOW_ALL) != SLURM_SUCCESS) {
		error("%s: %s: cannot read node states: %s", plugin_type,
		      __func__, slurm_strerror(TOFA_SLURM_ERRNO()));
		*all = NULL;
		return NULL;
	}
	for (uint32_t i = 0; i < info->record_count; i++) {
		node_info_t *node = &info->node_array[i];
		uint32_t base = node->node_state & NODE_STATE_BASE;
		uint16_t alloc_cpus = 0;
		int limit;

		if (!node->name ||
		    (base != NODE_STATE_IDLE && base != NODE_STATE_MIXED &&
		     base != NODE_STATE_ALLOCATED) ||
		    (node->node_state & (NODE_STATE_DRAIN | NODE_STATE_FAIL |
					 NODE_STATE_NO_RESPOND |
					 NODE_STATE_POWERED_DOWN)))
			continue;
		_add_limit(&all_list, node->name,
			   _task_limit(opt, node->cpus_efctv));
		TOFA_NODE_ALLOC_CPUS(node, &alloc_cpus);
		if ((opt->shared == 0 && alloc_cpus) || /* --exclusive */
		    node->cpus_efctv <= alloc_cpus)
			continue;
		limit = _task_limit(opt, node->cpus_efctv - alloc_cpus);
		_add_limit(&free_list, node->name, limit);
		room += limit > 0 ? limit : 0;
	}
	slurm_free_node_info_msg(info);
	if (room < opt->ntasks)
		xfree(free_list);
	*all = all_list;
	return free_list;
}

/* Nodes (a hostlist) each with the tasks its CPUs allow (per_cpu: a task
 * per CPU, or any number with --overcommit), the CPUs given as Slurm
 * writes SLURM_JOB_CPUS_PER_NODE ("8(x2),5"); xmalloc'ed, NULL when either
 * is missing. */
static char *_allocation_limits(slurm_opt_t *opt, const char *nodes,
				const char *cpus, bool per_cpu)
{
	tofa_hostlist_t hl;
	char *name, *list = NULL;
	const char *c = cpus;
	long count = 0, repeat = 0;

	if (!nodes || !cpus || !(hl = hostlist_create(nodes)))
		return NULL;
	while ((name = hostlist_shift(hl))) {
		if (repeat == 0) {
			char *end;
			if (!c || !*c)
				break;
			count = strtol(c, &end, 10);
			repeat = 1;
			if (!strncmp(end, "(x", 2)) {
				repeat = strtol(end + 2, &end, 10);
				end++; /* ')' */
			}
			c = *end == ',' ? end + 1 : end;
		}
		_add_limit(&list, name,
			   !per_cpu ? _task_limit(opt, (int) count) :
			   opt->overcommit ? TOFA_MAX_TASKS_PER_NODE :
					     (int) count);
		repeat--;
		free(name);
	}
	hostlist_destroy(hl);
	return list;
}

static int _compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* True when every task of `placement` (a node name per task) is on a node
 * of `limits` ("name:tasks,...") and no node has more than its limit. The
 * task names are sorted once: a node's tasks are then one run of them. */
static bool _fits_limits(const char *placement, const char *limits)
{
	char *names = xstrdup(placement), *copy = xstrdup(limits);
	char *save = NULL, *entry;
	int count = _count_names(placement), placed = 0, n = 0;
	char **tasks = xcalloc(count ? count : 1, sizeof(*tasks));
	bool fits = true;

	for (entry = strtok_r(names, ",", &save); entry && n < count;
	     entry = strtok_r(NULL, ",", &save))
		tasks[n++] = entry;
	qsort(tasks, n, sizeof(*tasks), _compare_names);
	save = NULL;
	for (entry = strtok_r(copy, ",", &save); entry && fits;
	     entry = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(entry, ':'), **first;
		int here = 0;

		if (!colon) {
			fits = false;
			break;
		}
		*colon = '\0';
		first = bsearch(&entry, tasks, n, sizeof(*tasks), _compare_names);
		while (first && first > tasks && !strcmp(first[-1], entry))
			first--;
		while (first && first + here < tasks + n && !strcmp(first[here], entry))
			here++;
		fits = here <= atoi(colon + 1);
		placed += here;
	}
	xfree(tasks);
	xfree(names);
	xfree(copy);
	return fits && placed == count && n == count;
}

/* The CPUs of an allocation response as SLURM_JOB_CPUS_PER_NODE has them. */
static char *_cpus_per_node(const resource_allocation_response_msg_t *resp)
{
	char *text = NULL;

	for (uint32_t i = 0; i < resp->num_cpu_groups; i++)
		xstrfmtcat(text, "%s%u(x%u)", i ? "," : "",
			   resp->cpus_per_node[i], resp->cpu_count_reps[i]);
	return text;
}

/* True when this command's own arguments include --tofa-matrix or
 * --tofa-pattern (not just the option inherited through the environment by
 * an srun in a job). */
static bool _matrix_on_command_line(void)
{
	return tofa_glue_command_line_has("--tofa-matrix", false, true) ||
	       tofa_glue_command_line_has("--tofa-pattern", false, false);
}

/* The task count check shared by srun, sbatch and salloc. *skip is set when
 * an srun inside a job inherited the job's graph but runs a step of another
 * size (e.g. "srun -n 1 prepare" before "srun ./app"): that step gets
 * Slurm's layout. */
static int _check_tasks(slurm_opt_t *opt, const char *command, bool *skip)
{
	const char *text = getenv("TOFA_TASKS");
	const char *matrix = getenv(TOFA_ENV_MATRIX);
	int tasks = text ? atoi(text) : 0;

	*skip = false;
	if (tasks <= 0)
		return SLURM_SUCCESS; /* graph given by id only: the service checks */
	if (!opt->ntasks_set) {
		opt->ntasks = tasks;
		opt->ntasks_set = true;
		return SLURM_SUCCESS;
	}
	if (opt->ntasks != tasks && opt->srun_opt && getenv("SLURM_JOB_ID") &&
	    !_matrix_on_command_line()) {
		info("%s: this step has %d tasks, the job's graph %s has %d: Slurm's layout is used",
		     plugin_type, opt->ntasks, matrix ? matrix : "", tasks);
		*skip = true;
		return SLURM_SUCCESS;
	}
	if (opt->ntasks != tasks) {
		error("%s: %s --ntasks=%d but the communication graph %s has %d tasks",
		      plugin_type, command, opt->ntasks,
		      matrix ? matrix : "", tasks);
		return SLURM_ERROR;
	}
	return SLURM_SUCCESS;
}

/* False when -N was given on the command line and the placement's distinct
 * nodes are not within it. */
static bool _spans_requested_nodes(slurm_opt_t *opt, const char *placement)
{
	tofa_hostlist_t hl;
	int nodes, min_nodes, max_nodes;

	_node_count(opt, &min_nodes, &max_nodes);
	if (!(hl = hostlist_create(placement)))
		return false;
	hostlist_uniq(hl);
	nodes = hostlist_count(hl);
	hostlist_destroy(hl);
	return nodes >= min_nodes && (max_nodes == 0 || nodes <= max_nodes);
}

/* A direct srun (no job yet) whose job this filter allocates itself, so
 * that the select shim places it at scheduling time: not for --test-only,
 * --no-allocate or a heterogeneous step (those keep the placement made on
 * the free nodes now, pinned with --nodelist). */
static bool _allocates_itself(slurm_opt_t *opt, unsigned job_id)
{
	return !job_id && !opt->srun_opt->test_only &&
	       !opt->srun_opt->no_alloc &&
	       !tofa_glue_command_line_has(":", true, false);
}

/* Job `job_id`'s nodes with their task limits (per_cpu as in
 * _allocation_limits): from the allocation this filter made, else from the
 * job's environment when srun runs in that job; NULL when unknown. */
static char *_job_limits(slurm_opt_t *opt, unsigned job_id,
			 const resource_allocation_response_msg_t *allocation,
			 bool per_cpu)
{
	const char *env_job = getenv("SLURM_JOB_ID");
	char *cpus, *limits;

	if (!allocation)
		return env_job && strtoul(env_job, NULL, 10) == job_id ?
			_allocation_limits(opt, getenv("SLURM_JOB_NODELIST"),
					   getenv("SLURM_JOB_CPUS_PER_NODE"),
					   per_cpu) :
			NULL;
	cpus = _cpus_per_node(allocation);
	limits = _allocation_limits(opt, allocation->node_list, cpus, per_cpu);
	xfree(cpus);
	return limits;
}

/* The sum of the limits of a "name:tasks,..." list. */
static long _room(const char *limits)
{
	long room = 0;

	for (const char *c = limits; c && (c = strchr(c, ':')); c++)
		room += strtol(c + 1, NULL, 10);
	return room;
}

/* One srun's layout as _srun_layout works it out. */
struct layout {
	slurm_opt_t *opt;
	const char *graph_id;
	char *conf, host[256], munge_socket[1024], err[1024];
	unsigned job_id;
	resource_allocation_response_msg_t *allocation; /* made here, or NULL */
	char *placement;  /* the step's nodes, task by task (malloc'ed) */
	char *candidates; /* nodes with task limits (xmalloc'ed) */
	char *per_cpu;    /* the job's nodes, a task per CPU (xmalloc'ed) */
	char *all_nodes;  /* every node, when the free ones cannot hold it */
	bool rerecord;    /* the job's record is missing or names other nodes */
};

/* The job's recorded placement when it is this step's: same graph, same
 * task count, within the job's allocation; else l->placement stays NULL. */
static void _recorded_placement(struct layout *l)
{
	char *placed_graph = NULL;
	slurm_opt_t *opt = l->opt;

	/* No record (24.11/26.05 array tasks): this step's is the job's. */
	if (tofa_client_job_placement(l->conf, l->host, l->munge_socket,
				      l->job_id, &l->placement, &placed_graph,
				      l->err, sizeof(l->err)) != TOFA_OK) {
		l->rerecord = true;
	} else if (placed_graph && placed_graph[0] &&
		   strcmp(placed_graph, l->graph_id)) {
		/* A step with another graph: placed on the allocation, the
		 * job's record left as it is. */
		verbose("%s: job %u's placement is for graph %s, this step's graph is %s: placing the step anew",
			plugin_type, l->job_id, placed_graph, l->graph_id);
	} else if (_count_names(l->placement) != opt->ntasks) {
		verbose("%s: job %u's placement has %d tasks, this step %d: placing the step anew",
			plugin_type, l->job_id, _count_names(l->placement),
			opt->ntasks);
	} else {
		free(placed_graph);
		l->per_cpu = _job_limits(opt, l->job_id, l->allocation, true);
		/* A record left by an earlier scheduling attempt of the job
		 * may name other nodes: srun's step would be refused. */
		if (!l->per_cpu || _fits_limits(l->placement, l->per_cpu))
			return;
		info("%s: job %u's recorded placement is not within its allocation: placing the step anew",
		     plugin_type, l->job_id);
		l->rerecord = true;
		free(l->placement);
		l->placement = NULL;
		return;
	}
	free(placed_graph);
	free(l->placement);
	l->placement = NULL;
	l->per_cpu = _job_limits(opt, l->job_id, l->allocation, true);
}

/* The candidates of a step of job l->job_id: its nodes with the tasks their
 * CPUs hold (none needed when its record is the step's). SLURM_SUCCESS, or
 * SLURM_ERROR when they are unknown; *as_without_tofa when no layout fits
 * the CPUs. */
static int _job_candidates(struct layout *l, tofa_place_request_t *request,
			   bool *as_without_tofa)
{
	slurm_opt_t *opt = l->opt;
	long room;

	l->candidates = _job_limits(opt, l->job_id, l->allocation, false);
	room = _room(l->candidates);
	/* cons_tres may grant fewer CPUs than tasks x -c (22.05); no layout
	 * runs such a step, and Slurm's says why. */
	if (l->candidates && opt->cpus_set && opt->cpus_per_task > 1 &&
	    room < opt->ntasks) {
		info("%s: job %u's CPUs hold %ld of the %d tasks of %d CPUs each: srun lays them out as without TOFA",
		     plugin_type, l->job_id, room, opt->ntasks,
		     opt->cpus_per_task);
		*as_without_tofa = true;
		return SLURM_SUCCESS;
	}
	/* -N's even spread does not fit the CPUs granted (24.11 and 26.05
	 * grant them unevenly): a task per CPU, on -N nodes. */
	if (l->candidates && l->per_cpu && room < opt->ntasks) {
		xfree(l->candidates);
		l->candidates = xstrdup(l->per_cpu);
	}
	if (l->placement) {  /* the job's record is the step's */
		xfree(l->candidates);
		return SLURM_SUCCESS;
	}
	if (!l->candidates) {
		error("%s: the nodes or CPUs of job %u are unknown: cannot place the step",
		      plugin_type, l->job_id);
		return SLURM_ERROR;
	}
	/* Slurm chose the nodes (e.g. -w), or the job's record is missing or
	 * named others: the placement on them is the job's, recorded. */
	if (l->allocation || l->rerecord)
		request->job_id = l->job_id;
	return SLURM_SUCCESS;
}

/* The service's placement of the step on l->candidates (then, when the
 * free CPUs cannot hold it, on every node: it queues for them, as it would
 * without TOFA). */
static int _place_step(struct layout *l, tofa_place_request_t *request)
{
	int got = TOFA_ERROR;

	request->direct_srun = l->job_id == 0;
	/* Limits per node: the node count is the service's to meet. */
	if (!l->opt->nodelist || l->job_id)
		_node_count(l->opt, &request->min_nodes, &request->max_nodes);
	if (l->candidates) {
		request->candidates = l->candidates;
		got = tofa_client_place(l->conf, l->host, l->munge_socket,
					request, &l->placement, l->err,
					sizeof(l->err));
	}
	if (got != TOFA_OK && l->all_nodes) {
		request->candidates = l->all_nodes;
		got = tofa_client_place(l->conf, l->host, l->munge_socket,
					request, &l->placement, l->err,
					sizeof(l->err));
	}
	if (got == TOFA_OK)
		return SLURM_SUCCESS;
	error("%s: no TOFA placement: %s", plugin_type, l->err);
	return SLURM_ERROR;
}

/* srun runs task i on node i of the placement, once it is checked. */
static int _use_placement(struct layout *l)
{
	slurm_opt_t *opt = l->opt;

	if (!_spans_requested_nodes(opt, l->placement)) {
		error("%s: the TOFA placement %s spans another number of nodes than -N %d-%d asks for",
		      plugin_type, l->placement, opt->min_nodes, opt->max_nodes);
		return SLURM_ERROR;
	}
	if (_count_names(l->placement) != opt->ntasks) {
		error("%s: the placement has %d tasks, --ntasks is %d",
		      plugin_type, _count_names(l->placement), opt->ntasks);
		return SLURM_ERROR;
	}
	xfree(opt->nodelist);
	opt->nodelist = xstrdup(l->placement);
	if (!l->job_id) {
		xfree(direct_graph_id);
		xfree(direct_placement);
		direct_graph_id = xstrdup(l->graph_id);
		direct_placement = xstrdup(l->placement);
	}
	opt->distribution = (opt->distribution & SLURM_DIST_STATE_FLAGS) |
			    SLURM_DIST_ARBITRARY;
	/* The placement spans the nodes -N asks for (checked above). */
	if (!TOFA_ARBITRARY_TAKES_NODE_COUNT &&
	    !slurm_option_set_by_env(opt, 'N'))
		opt->nodes_set = false;
	verbose("%s: task i runs on node i of %s", plugin_type, l->placement);
	return SLURM_SUCCESS;
}

static int _srun_layout(slurm_opt_t *opt, const char *graph_id)
{
	const char *job_text = getenv("SLURM_JOB_ID");
	struct layout l = {
		.opt = opt,
		.graph_id = graph_id,
		.conf = tofa_glue_conf_path(),
		.job_id = job_text ? (unsigned) strtoul(job_text, NULL, 10) : 0,
	};
	tofa_place_request_t request = {
		.graph_id = graph_id,
		.task_count = opt->ntasks,
		.strategy = getenv(TOFA_ENV_STRATEGY),
		.parameters = getenv(TOFA_ENV_PARAMS),
	};
	bool as_without_tofa = false;
	int rc = SLURM_ERROR;

	if (opt->srun_opt->jobid != NO_VAL && opt->srun_opt->jobid)
		l.job_id = opt->srun_opt->jobid;
	tofa_glue_service_host(l.conf, l.host, sizeof(l.host));
	tofa_glue_munge_socket(l.munge_socket, sizeof(l.munge_socket));

	if (_allocates_itself(opt, l.job_id)) {
		if (!(l.allocation = tofa_allocate_direct_job(opt, plugin_type)))
			goto out;
		l.job_id = TOFA_RESP_JOB_ID(l.allocation);
		opt->srun_opt->jobid = l.job_id;
		tofa_end_job_with_srun(l.job_id, plugin_type);
	}
	if (l.job_id) {
		_recorded_placement(&l);
		if (_job_candidates(&l, &request, &as_without_tofa) !=
			    SLURM_SUCCESS || as_without_tofa) {
			rc = as_without_tofa ? SLURM_SUCCESS : SLURM_ERROR;
			goto out;
		}
	} else if (opt->nodelist) {
		l.candidates = xstrdup(opt->nodelist);
	} else if (!(l.candidates = _free_nodes(opt, &l.all_nodes)) &&
		   !l.all_nodes) {
		error("%s: no node can take the %d tasks", plugin_type,
		      opt->ntasks);
		goto out;
	}
	if (!l.placement && _place_step(&l, &request) != SLURM_SUCCESS)
		goto out;
	rc = _use_placement(&l);
out:
	free(l.placement);
	xfree(l.candidates);
	xfree(l.per_cpu);
	xfree(l.all_nodes);
	slurm_free_resource_allocation_response_msg(l.allocation);
	free(l.conf);
	return rc;
}

/* sbatch/salloc with --tofa-strategy or --tofa-param: a trial placement on
 * the whole machine (nothing recorded), so that a strategy that cannot
 * apply to this graph, or a bad parameter, stops the command before the
 * job is submitted instead of failing it when it starts. */
static int _check_strategy_applies(slurm_opt_t *opt, const char *graph_id)
{
	const char *strategy = getenv(TOFA_ENV_STRATEGY);
	const char *parameters = getenv(TOFA_ENV_PARAMS);
	tofa_place_request_t request = {
		.graph_id = graph_id,
		.task_count = opt->ntasks_set ? opt->ntasks : 0,
		.strategy = strategy,
		.parameters = parameters,
	};
	char err[1024], host[256], munge_socket[1024], *placement = NULL;
	char *conf;
	int rc;

	if ((!strategy || !strategy[0]) && (!parameters || !parameters[0]))
		return SLURM_SUCCESS;
	conf = tofa_glue_conf_path();
	tofa_glue_service_host(conf, host, sizeof(host));
	tofa_glue_munge_socket(munge_socket, sizeof(munge_socket));
	rc = tofa_client_place(conf, host, munge_socket, &request, &placement,
			       err, sizeof(err));
	free(placement);
	free(conf);
	if (rc == TOFA_OK)
		return SLURM_SUCCESS;
	error("%s: strategy %s cannot place this job: %s", plugin_type,
	      strategy && strategy[0] ? strategy : "(default)", err);
	return SLURM_ERROR;
}

/* True for --distribution=TOFA (patched Slurm); clears the marker, and for
 * sbatch/salloc the arbitrary base too, so that the options are those of
 * --tofa-matrix alone. */
static bool _take_tofa_distribution(slurm_opt_t *opt)
{
	if (opt->distribution == (task_dist_states_t) SLURM_ERROR ||
	    !(opt->distribution & SLURM_DIST_TOFA))
		return false;
	opt->distribution &= ~SLURM_DIST_TOFA;
	if (!opt->srun_opt)
		opt->distribution = (opt->distribution &
				     SLURM_DIST_STATE_FLAGS) |
				    SLURM_DIST_UNKNOWN;
	return true;
}

/* A node list Slurm's own hostlist code refuses (t[3-1], more names than a
 * hostlist holds): said here, before srun's job request dereferences the
 * hostlist it could not build (22.05 and 24.11 crash in
 * slurm_opt_create_job_desc). */
static int _check_node_list(const char *option, const char *list)
{
	tofa_hostlist_t hl;

	if (!list)
		return SLURM_SUCCESS;
	if (!(hl = hostlist_create(list))) {
		error("%s: %s '%s' is not a node list Slurm can expand (expected NAME[LO-HI,...] with LO <= HI, at most 65536 names a range)",
		      plugin_type, option, list);
		return SLURM_ERROR;
	}
	hostlist_destroy(hl);
	return SLURM_SUCCESS;
}

extern int cli_filter_p_pre_submit(slurm_opt_t *opt, int offset)
{
	const char *graph_id = getenv(TOFA_ENV_GRAPH_ID);
	bool tofa_dist = _take_tofa_distribution(opt);
	bool skip = false;

	/* A heterogeneous job's graph is its first component's; the others
	 * get Slurm's layout. */
	if (offset > 0 && !tofa_dist)
		return SLURM_SUCCESS;
	if (!graph_id || !graph_id[0]) {
		if (!tofa_dist)
			return SLURM_SUCCESS;
		error("%s: --distribution=TOFA needs a communication graph: add --tofa-matrix=FILE or --tofa-pattern=SPEC",
		      plugin_type);
		return SLURM_ERROR;
	}
	if (_check_node_list("--nodelist (-w)", opt->nodelist) != SLURM_SUCCESS ||
	    _check_node_list("--exclude (-x)", opt->exclude) != SLURM_SUCCESS)
		return SLURM_ERROR;
	if (opt->srun_opt) {
		if (_check_tasks(opt, "srun", &skip) != SLURM_SUCCESS)
			return SLURM_ERROR;
		if (skip && tofa_dist) {
			error("%s: srun --distribution=TOFA --ntasks=%d but the job's communication graph has %s tasks",
			      plugin_type, opt->ntasks, getenv("TOFA_TASKS"));
			return SLURM_ERROR;
		}
		return skip ? SLURM_SUCCESS : _srun_layout(opt, graph_id);
	}
	if (_check_tasks(opt, opt->sbatch_opt ? "sbatch" : "salloc", &skip) !=
	    SLURM_SUCCESS)
		return SLURM_ERROR;
	return _check_strategy_applies(opt, graph_id);
}
