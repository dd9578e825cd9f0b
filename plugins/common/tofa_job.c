/* A TOFA job's node choice inside slurmctld, shared by the release shims;
 * see tofa_job.h. */
#include "slurm_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/bitstring.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/slurmctld.h"

#include "capi/tofa_service.h"
#include "slurm_compat.h"
#include "tofa_glue.h"
#include "tofa_job.h"

static const char log_prefix[] = "tofa";

/* NO_VAL16 and 0 both mean "not given". */
static uint32_t _given(uint16_t value)
{
	return value == NO_VAL16 ? 0 : value;
}

extern const char *tofa_job_env(job_record_t *job_ptr, const char *name)
{
	return tofa_glue_env_find(job_ptr->spank_job_env,
				  job_ptr->spank_job_env_size, name);
}

extern uint32_t tofa_job_cpus_per_task(job_record_t *job_ptr)
{
	tofa_job_details_t *details = job_ptr->details;
	uint32_t per_task = details ? _given(details->cpus_per_task) : 0;

	return per_task ? per_task : 1;
}

extern uint32_t tofa_job_task_limit(job_record_t *job_ptr, uint32_t cpus)
{
	tofa_job_details_t *details = job_ptr->details;

	return tofa_task_limit(cpus, tofa_job_cpus_per_task(job_ptr),
			       details ? _given(details->ntasks_per_node) : 0,
			       details && details->overcommit);
}

extern void tofa_job_node_bounds(job_record_t *job_ptr, uint32_t *min_nodes,
				 uint32_t *max_nodes)
{
	tofa_job_details_t *details = job_ptr->details;
	unsigned min = *min_nodes, max = *max_nodes;

	if (!details)
		return;
	tofa_node_bounds(details->num_tasks, _given(details->ntasks_per_node),
			 &min, &max);
	*min_nodes = min;
	*max_nodes = max;
}

extern unsigned *tofa_job_candidates(job_record_t *job_ptr,
				     const uint32_t *free_cpus,
				     uint32_t min_nodes, uint64_t *room)
{
	tofa_job_details_t *details = job_ptr->details;
	unsigned *limit = xcalloc(node_record_count, sizeof(*limit));
	node_record_t *node_ptr;

	*room = 0;
	for (int i = 0; (node_ptr = next_node(&i)); i++)
		if (free_cpus[i])
			limit[i] = tofa_job_task_limit(job_ptr, free_cpus[i]);
	tofa_spread_task_limits(limit, node_record_count,
				details ? details->num_tasks : 0, min_nodes);
	for (int i = 0; i < node_record_count; i++)
		*room += limit[i];
	if (!*room)
		xfree(limit);
	return limit;
}

/* The nodes with limits[i] > 0 as the service takes them, each min_tasks to
 * limits[i] tasks; index[k] is candidate k's node index. xfree both. */
static tofa_candidate_t *_listed(const unsigned *limits, unsigned min_tasks,
				 int **index, int *count)
{
	tofa_candidate_t *listed = xcalloc(node_record_count, sizeof(*listed));
	node_record_t *node_ptr;

	*index = xcalloc(node_record_count, sizeof(**index));
	*count = 0;
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		if (!limits[i])
			continue;
		listed[*count].name = node_ptr->name;
		listed[*count].min_tasks = min_tasks;
		listed[*count].max_tasks = limits[i];
		(*index)[(*count)++] = i;
	}
	return listed;
}

extern bitstr_t *tofa_job_choose_from(job_record_t *job_ptr,
				      const char *graph_id,
				      const unsigned *limits, unsigned min_tasks,
				      uint32_t min_nodes, uint32_t max_nodes,
				      char *err, size_t err_size)
{
	tofa_candidate_t *candidates;
	unsigned *tasks;
	int *index, count;
	bitstr_t *nodes = NULL;

	if (!limits) {
		snprintf(err, err_size, "no candidate node has a free CPU");
		return NULL;
	}
	candidates = _listed(limits, min_tasks, &index, &count);
	tasks = xcalloc(node_record_count, sizeof(*tasks));
	if (tofa_service_choose_nodes_from(
		    job_ptr->job_id, job_ptr->user_id, graph_id, candidates,
		    count, min_nodes > 1 ? min_nodes : 0,
		    max_nodes < (uint32_t) node_record_count ? max_nodes : 0,
		    tasks, err, err_size) == TOFA_OK) {
		nodes = bit_alloc(node_record_count);
		for (int k = 0; k < count; k++)
			if (tasks[k])
				bit_set(nodes, index[k]);
		debug("%s: %pJ: TOFA node choice of %d nodes", log_prefix,
		      job_ptr, bit_set_count(nodes));
	}
	xfree(candidates);
	xfree(index);
	xfree(tasks);
	return nodes;
}

extern int tofa_job_map_later(job_record_t *job_ptr, const unsigned *allocation,
			      char *err, size_t err_size)
{
	tofa_candidate_t *listed = NULL;
	int *index = NULL, count = 0, rc;

	if (allocation)
		listed = _listed(allocation, 1, &index, &count);
	rc = tofa_service_map_later(job_ptr->job_id, listed, count,
				    tofa_job_env(job_ptr, TOFA_ENV_STRATEGY),
				    tofa_job_env(job_ptr, TOFA_ENV_PARAMS),
				    err, err_size);
	xfree(listed);
	xfree(index);
	return rc;
}

extern void tofa_job_forget(job_record_t *job_ptr)
{
	char err[256];

	if (tofa_service_forget_job(job_ptr->job_id, err, sizeof(err)) != TOFA_OK)
		error("%s: %s: %pJ: %s", log_prefix, __func__, job_ptr, err);
}

extern const char *tofa_job_graph(job_record_t *job_ptr)
{
	const char *graph_id = tofa_job_env(job_ptr, TOFA_ENV_GRAPH_ID);

	if (!graph_id || !job_ptr->details || job_ptr->details->req_node_bitmap)
		return NULL;
	if (job_ptr->het_job_id && job_ptr->het_job_offset)
		return NULL;
	return graph_id;
}

/* `nodes` without those above OutageThreshold; *dropped says how many were
 * taken out (0, and a plain copy, when the service cannot say). */
static bitstr_t *_without_failing(bitstr_t *nodes, int *dropped)
{
	bitstr_t *healthy = bit_copy(nodes), *failing = NULL;
	char *names = NULL, err[256];

	*dropped = 0;
	if (tofa_service_failing_nodes(&names, err, sizeof(err)) != TOFA_OK) {
		error("%s: %s: %s", log_prefix, __func__, err);
		return healthy;
	}
	if (names[0] &&
	    TOFA_NODE_NAME2BITMAP(names, false, &failing) == SLURM_SUCCESS) {
		bit_and_not(healthy, failing);
		*dropped = bit_set_count(nodes) - bit_set_count(healthy);
	}
	FREE_NULL_BITMAP(failing);
	free(names);
	return healthy;
}

struct healthy_first_args {
	bitstr_t *candidates;
	int (*choose)(bitstr_t *nodes, void *arg);
	void *arg;
};

/* One node choice of tofa_service_choose_healthy_first, on Slurm's bitmaps. */
static int _choose_on(int with_failing, int *left_out, void *arg)
{
	struct healthy_first_args *a = arg;
	bitstr_t *healthy;
	int rc;

	if (with_failing)
		return a->choose(a->candidates, a->arg) == SLURM_SUCCESS ?
			TOFA_OK : TOFA_ERROR;
	healthy = _without_failing(a->candidates, left_out);
	rc = a->choose(healthy, a->arg);
	FREE_NULL_BITMAP(healthy);
	return rc == SLURM_SUCCESS ? TOFA_OK : TOFA_ERROR;
}

extern tofa_choice_t tofa_job_healthy_first(
	job_record_t *job_ptr, bitstr_t *candidates,
	int (*choose)(bitstr_t *nodes, void *arg), void *arg)
{
	struct healthy_first_args args = { candidates, choose, arg };
	char note[256];
	tofa_choice_t choice = tofa_service_choose_healthy_first(
		_choose_on, &args, note, sizeof(note));

	if (note[0])
		info("%s: job %u %s", log_prefix, job_ptr->job_id, note);
	return choice;
}

extern double tofa_now_ms(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}
