/* The TOFA service inside slurmctld; see tofa_ctld.h. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "slurm_config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/slurmctld.h"

#include "capi/tofa_service.h"
#include "tofa_glue.h"
#include "tofa_ctld.h"

/* Seconds between two pushes of the node table (and start retries). */
#define PUSH_PERIOD 3

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
typedef list_itr_t *tofa_list_itr_t;
#else
typedef ListIterator tofa_list_itr_t;
#endif

static const char *log_who = "tofa";
static pthread_t push_thread;
static bool thread_started = false;
static bool stopping = false;
static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_cond = PTHREAD_COND_INITIALIZER;

static int _start_service(bool quiet)
{
	char err[1024], munge_socket[1024];
	char *conf = tofa_glue_conf_path();
	char *state = xstrdup_printf("%s/tofa", slurm_conf.state_save_location);
	int rc;

	tofa_glue_munge_socket(munge_socket, sizeof(munge_socket));
	rc = tofa_service_start(conf, state, slurm_conf.slurm_user_id,
				munge_socket, tofa_glue_log, err, sizeof(err));
	if (rc == TOFA_OK)
		info("%s: %s: service listening on port %d (conf %s, state %s)",
		     log_who, __func__, tofa_service_port(), conf, state);
	else if (!quiet)
		error("%s: %s: cannot start the TOFA service: %s (retrying every %d s)",
		      log_who, __func__, err, PUSH_PERIOD);
	free(conf);
	xfree(state);
	return rc;
}

/* Copies the node table under a node read lock, then hands it over. */
static void _push_nodes(void)
{
	slurmctld_lock_t node_read = {
		.conf = NO_LOCK, .job = NO_LOCK, .node = READ_LOCK,
		.part = NO_LOCK, .fed = NO_LOCK };
	tofa_node_address_t *nodes = NULL;
	node_record_t *node_ptr;
	char err[1024];
	int count = 0;

	lock_slurmctld(node_read);
	nodes = xcalloc(node_record_count + 1, sizeof(*nodes));
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		nodes[count].name = xstrdup(node_ptr->name);
		nodes[count].address = xstrdup(node_ptr->comm_name);
		nodes[count].slurmd_port = node_ptr->port;
		count++;
	}
	unlock_slurmctld(node_read);

	if (tofa_service_set_nodes(nodes, count, err, sizeof(err)) != TOFA_OK)
		error("%s: %s: %s", log_who, __func__, err);
	for (int i = 0; i < count; i++) {
		xfree(nodes[i].name);
		xfree(nodes[i].address);
	}
	xfree(nodes);
}

/* The graph ids of jobs that have not ended, under a job read lock: the
 * service's quota must not evict a graph a job still needs. And the TOFA
 * jobs running: the service counts the links of their placements. */
static void _push_jobs(void)
{
	slurmctld_lock_t job_read = {
		.conf = NO_LOCK, .job = READ_LOCK, .node = NO_LOCK,
		.part = NO_LOCK, .fed = NO_LOCK };
	char **ids = NULL, err[1024];
	unsigned *running = NULL;
	int count = 0, size = 0, running_count = 0;
	tofa_list_itr_t it;
	job_record_t *job_ptr;

	/* slurmctld's job_list, looked up at run time: a data reference
	 * would keep this file's plugin from loading outside slurmctld
	 * (topology/tofa is loaded by slurmd and the clients too). */
	void **jobs = dlsym(RTLD_DEFAULT, "job_list");

	if (!jobs)
		return;
	lock_slurmctld(job_read);
	if (!*jobs) {
		unlock_slurmctld(job_read);
		return;
	}
	it = list_iterator_create(*jobs);
	while ((job_ptr = list_next(it))) {
		const char *id;

		if (IS_JOB_FINISHED(job_ptr) && !IS_JOB_COMPLETING(job_ptr))
			continue;
		id = tofa_glue_env_find(job_ptr->spank_job_env,
					job_ptr->spank_job_env_size,
					TOFA_ENV_GRAPH_ID);
		if (!id)
			continue;
		if (count == size) {
			size = size ? 2 * size : 64;
			xrecalloc(ids, size, sizeof(*ids));
			xrecalloc(running, size, sizeof(*running));
		}
		ids[count++] = xstrdup(id);
		if (IS_JOB_RUNNING(job_ptr))
			running[running_count++] = job_ptr->job_id;
	}
	list_iterator_destroy(it);
	unlock_slurmctld(job_read);

	if (tofa_service_set_referenced_graphs((const char *const *) ids, count,
					       err, sizeof(err)) != TOFA_OK)
		error("%s: %s: %s", log_who, __func__, err);
	if (tofa_service_set_running_jobs(running, running_count, err, sizeof(err)) != TOFA_OK)
		error("%s: %s: %s", log_who, __func__, err);
	for (int i = 0; i < count; i++)
		xfree(ids[i]);
	xfree(ids);
	xfree(running);
}

static void *_push_loop(void *arg)
{
	bool retry_quietly = false;
	(void) arg;

	while (true) {
		struct timespec until;

		if (!tofa_service_running()) {
			if (_start_service(retry_quietly) == TOFA_OK)
				retry_quietly = false;
			else
				retry_quietly = true; /* said it once */
		}
		if (tofa_service_running()) {
			_push_nodes();
			_push_jobs();
		}

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += PUSH_PERIOD;
		slurm_mutex_lock(&stop_lock);
		if (!stopping)
			pthread_cond_timedwait(&stop_cond, &stop_lock, &until);
		bool done = stopping;
		slurm_mutex_unlock(&stop_lock);
		if (done)
			break;
	}
	return NULL;
}

/* Slurm 24.11 and 26.05 exit without calling plugins' fini (only their
 * MEMORY_LEAK_DEBUG builds do): the service stops here, state saved, before
 * the process's static destructors run. The node thread is told to stop but
 * not waited for: exit() may come from fatal() in a thread that holds the
 * node lock the node thread waits for (a bad slurm.conf at startup). After
 * fini, and in a forked child that calls exit(), it does nothing. */
static pid_t exit_hook_pid = 0;

static void _stop_at_exit(void)
{
	if (getpid() != exit_hook_pid)
		return;
	slurm_mutex_lock(&stop_lock);
	stopping = true;
	pthread_cond_broadcast(&stop_cond);
	slurm_mutex_unlock(&stop_lock);
	tofa_service_stop();
}

extern void tofa_ctld_start(const char *who)
{
	if (!exit_hook_pid && atexit(_stop_at_exit) == 0)
		exit_hook_pid = getpid();
	if (thread_started)
		return;
	log_who = who;
	stopping = false;
	if (pthread_create(&push_thread, NULL, _push_loop, NULL)) {
		error("%s: %s: cannot create the node thread: %m; TOFA service disabled",
		      log_who, __func__);
		return; /* never take slurmctld down */
	}
	thread_started = true;
}

extern void tofa_ctld_stop(void)
{
	if (thread_started) {
		slurm_mutex_lock(&stop_lock);
		stopping = true;
		pthread_cond_broadcast(&stop_cond);
		slurm_mutex_unlock(&stop_lock);
		pthread_join(push_thread, NULL);
		thread_started = false;
	}
	tofa_service_stop();
}
