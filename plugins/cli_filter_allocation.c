/*
 * A direct srun's job, allocated here instead of by srun.
 *
 * Slurm 22.05's srun creates its step right after its allocation, with no
 * plugin hook in between, and takes an arbitrary layout only from options
 * it read before submitting. So cli_filter/tofa, which runs while srun
 * parses its options, submits the job itself (the request srun would send,
 * plus the TOFA variables tofa_loadmatrix would attach), waits until it
 * runs, and hands srun the job id (srun --jobid): srun then runs its step
 * in an existing allocation, laid out from the placement tofa's select
 * shim chose at scheduling time, as for an srun inside sbatch. srun does
 * not end jobs it did not allocate, so this file ends it when srun exits.
 */
#include "common/slurm_config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/log.h"
#include "src/common/slurm_opt.h"
#include "src/common/slurm_protocol_defs.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "common/slurm_compat.h"
#include "cli_filter_allocation.h"
#include "common/tofa_glue.h"

static const char *log_type = "cli_filter/tofa";

/* ---- allocation -------------------------------------------------------- */

static volatile sig_atomic_t interrupting_signal;
static uint32_t pending_job_id;

/* ---- what differs between Slurm releases --------------------------------
 * 22.05: the command's argv is srun's (srun_opt->argc/argv); jobs are named
 * by a uint32_t id in the allocation calls. 24.11: argv moved up to
 * slurm_opt_t. 26.05: the allocation calls take slurm_step_id_t, the
 * response carries step_id, slurm_allocate_resources_blocking takes an fd
 * that ends the wait when readable (a self-pipe written by the signal
 * handler: it also catches a signal that arrives before poll() starts), and
 * ESLURM_ERROR_ON_DESC_TO_RECORD_COPY is gone. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#define TOFA_ARGC(opt) ((opt)->argc)
#define TOFA_ARGV(opt) ((opt)->argv)
#else
#define TOFA_ARGC(opt) ((opt)->srun_opt->argc)
#define TOFA_ARGV(opt) ((opt)->srun_opt->argv)
#endif

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
static int wake_fds[2] = { -1, -1 };

static slurm_step_id_t _job_step_id(uint32_t job_id)
{
	slurm_step_id_t id = SLURM_STEP_ID_INITIALIZER;

	id.job_id = job_id;
	return id;
}
#define TOFA_KILL_JOB(job_id, sig) slurm_kill_job(_job_step_id(job_id), (sig), 0)
static int _complete(uint32_t job_id, uint32_t rc)
{
	slurm_step_id_t id = _job_step_id(job_id);

	return slurm_complete_job(&id, rc);
}
#define TOFA_RETRY_ERRNO(e) ((e) == SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT || \
			     (e) == ESLURM_NODES_BUSY)
#else
#define TOFA_KILL_JOB(job_id, sig) slurm_kill_job((job_id), (sig), 0)
#define _complete(job_id, rc) slurm_complete_job((job_id), (rc))
#define TOFA_RETRY_ERRNO(e) ((e) == ESLURM_ERROR_ON_DESC_TO_RECORD_COPY || \
			     (e) == SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT || \
			     (e) == ESLURM_NODES_BUSY)
#endif

static void _note_signal(int signal)
{
	interrupting_signal = signal;
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	if (wake_fds[1] >= 0) {
		char byte = 1;
		(void) !write(wake_fds[1], &byte, 1);
	}
#endif
}

/* (libslurm itself says "job N queued and waiting for resources".) */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
static void _note_pending(slurm_step_id_t *step_id)
{
	pending_job_id = step_id ? step_id->job_id : 0;
}
#else
static void _note_pending(uint32_t job_id)
{
	pending_job_id = job_id;
}
#endif

static const int interrupting_signals[] = { SIGINT, SIGTERM, SIGHUP,
					    SIGQUIT };
#define SIGNAL_COUNT (sizeof(interrupting_signals) / sizeof(int))

/* The variables tofa_loadmatrix attaches to a job (it runs after this
 * filter, and only on requests srun sends itself). */
static void _attach_tofa_env(job_desc_msg_t *desc)
{
	static const char *names[] = { TOFA_ENV_GRAPH_ID, TOFA_ENV_MATRIX,
				       TOFA_ENV_STRATEGY, TOFA_ENV_PARAMS };
	const int names_count = sizeof(names) / sizeof(names[0]);
	int count = 0;

	desc->spank_job_env = xcalloc(names_count, sizeof(char *));
	for (int i = 0; i < names_count; i++) {
		const char *value = getenv(names[i]);
		if (value)
			desc->spank_job_env[count++] =
				xstrdup_printf("SPANK_%s=%s", names[i], value);
	}
	desc->spank_job_env_size = count;
}

/* The job srun would submit. --distribution=TOFA reaches the filter as an
 * arbitrary distribution, which needs a node list that the placement only
 * gives later: the job itself is requested with Slurm's default layout. */
static job_desc_msg_t *_job_request(slurm_opt_t *opt)
{
	task_dist_states_t distribution = opt->distribution;
	job_desc_msg_t *desc;

	if (distribution != (task_dist_states_t) SLURM_ERROR &&
	    (distribution & SLURM_DIST_STATE_BASE) == SLURM_DIST_ARBITRARY &&
	    !opt->nodelist)
		opt->distribution = (distribution & SLURM_DIST_STATE_FLAGS) |
				    SLURM_DIST_UNKNOWN;
	desc = slurm_opt_create_job_desc(opt, true);
	opt->distribution = distribution;
	return desc;
}

/* long: the allocation request built field by field, as srun builds it. */
resource_allocation_response_msg_t *tofa_allocate_direct_job(slurm_opt_t *opt,
							      const char *plugin_type)
{
	job_desc_msg_t *desc = _job_request(opt);
	resource_allocation_response_msg_t *resp = NULL;
	struct sigaction action = { .sa_handler = _note_signal }, saved[SIGNAL_COUNT];
	sigset_t unblock, saved_mask;

	log_type = plugin_type;
	if (!desc) {
		error("%s: cannot build the job request from srun's options",
		      plugin_type);
		return NULL;
	}
	/* srun names its job after the command (it learns the name only
	 * after this filter has run). */
	if (!desc->name && TOFA_ARGC(opt) > 0) {
		const char *slash = strrchr(TOFA_ARGV(opt)[0], '/');
		desc->name = xstrdup(slash ? slash + 1 : TOFA_ARGV(opt)[0]);
	}
	_attach_tofa_env(desc);

	/* No SA_RESTART: a signal ends the blocking wait at once. */
	sigemptyset(&action.sa_mask);
	sigemptyset(&unblock);
	for (size_t i = 0; i < SIGNAL_COUNT; i++) {
		sigaction(interrupting_signals[i], &action, &saved[i]);
		sigaddset(&unblock, interrupting_signals[i]);
	}
	sigprocmask(SIG_UNBLOCK, &unblock, &saved_mask);
	interrupting_signal = 0;
	pending_job_id = 0;

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	if (pipe(wake_fds))
		wake_fds[0] = wake_fds[1] = -1;
	for (int i = 0; i < 2 && wake_fds[i] >= 0; i++) {
		fcntl(wake_fds[i], F_SETFD, FD_CLOEXEC);
		fcntl(wake_fds[i], F_SETFL, O_NONBLOCK);
	}
#endif
	while (!resp && !interrupting_signal) {
		resp = slurm_allocate_resources_blocking(desc, opt->immediate,
							 _note_pending
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
							 , wake_fds[0]
#endif
							 );
		if (!resp && (interrupting_signal || !TOFA_RETRY_ERRNO(errno)))
			break;
		if (!resp)
			sleep(1); /* slurmctld busy: retry, as srun does */
	}
	if (!resp && !interrupting_signal)
		error("%s: job allocation failed: %s", plugin_type,
		      slurm_strerror(errno));
	/* Served: srun would only say it ignores it in an allocation. */
	if (resp)
		opt->begin = 0;
	if (interrupting_signal) {
		uint32_t job_id = resp ? TOFA_RESP_JOB_ID(resp) : pending_job_id;
		if (job_id) {
			info("%s: cancelling job %u (signal %d)", plugin_type,
			     job_id, (int) interrupting_signal);
			TOFA_KILL_JOB(job_id, SIGKILL);
		}
		slurm_free_resource_allocation_response_msg(resp);
		resp = NULL;
	}

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
	for (int i = 1; i >= 0; i--) {
		int fd = wake_fds[i];

		wake_fds[i] = -1; /* before close: the handler may still run */
		if (fd >= 0)
			close(fd);
	}
#endif
	sigprocmask(SIG_SETMASK, &saved_mask, NULL);
	for (size_t i = 0; i < SIGNAL_COUNT; i++)
		sigaction(interrupting_signals[i], &saved[i], NULL);
	slurm_free_job_desc_msg(desc);
	return resp;
}

/* ---- the job ends with srun -------------------------------------------- */

static uint32_t srun_job_id;
static int shepherd_fd = -1;

/* srun exits: the job completes with srun's status (as an exit code). */
static void _complete_job(int status, void *arg)
{
	char done = 1;
	(void) arg;

	if (_complete(srun_job_id, (uint32_t) (status & 0xff) << 8) !=
	    SLURM_SUCCESS && errno != ESLURM_ALREADY_DONE)
		error("%s: cannot complete job %u: %s", log_type, srun_job_id,
		      slurm_strerror(errno));
	if (shepherd_fd >= 0 && write(shepherd_fd, &done, 1) != 1)
		debug("%s: the shepherd of job %u is gone", log_type,
		      srun_job_id);
}

/* The shepherd: a child that waits for srun's byte or, if srun dies
 * without one, the pipe's end, then cancels the job. It leaves the
 * terminal's signals to srun and keeps no output stream open. */
static void _run_shepherd(int fd, uint32_t job_id)
{
	char byte;
	ssize_t got;
	int devnull = open("/dev/null", O_RDWR);

	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTSTP, SIG_IGN);
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
	}
	do {
		got = read(fd, &byte, 1);
	} while (got < 0 && errno == EINTR);
	if (got != 1)
		TOFA_KILL_JOB(job_id, SIGKILL);
	_exit(0);
}

void tofa_end_job_with_srun(uint32_t job_id, const char *plugin_type)
{
	int fds[2];
	pid_t pid;

	log_type = plugin_type;
	srun_job_id = job_id;
	if (pipe(fds) == 0) {
		fcntl(fds[0], F_SETFD, FD_CLOEXEC);
		fcntl(fds[1], F_SETFD, FD_CLOEXEC);
		pid = fork();
		if (pid == 0) {
			close(fds[1]);
			_run_shepherd(fds[0], job_id);
		}
		close(fds[0]);
		if (pid > 0)
			shepherd_fd = fds[1];
		else
			close(fds[1]);
	}
	if (shepherd_fd < 0)
		error("%s: no shepherd for job %u: if srun is killed, cancel the job yourself",
		      plugin_type, job_id);
	on_exit(_complete_job, NULL);
}
