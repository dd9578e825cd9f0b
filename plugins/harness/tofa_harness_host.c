/*
 * tofa_harness_host.so - hosts tofa's real Slurm plugin objects outside
 * Slurm's daemons; see tofa_harness_host.h. This file holds what needs
 * Slurm's internal headers: slurm.conf and logging (libslurmfull), the node
 * table (libslurmfull's node_conf), slurmctld's locks (slurmctld's own
 * symbols, defined here) and the plugin loader. The SPANK side is in
 * tofa_harness_spank.c.
 */
#define _GNU_SOURCE
#include "common/slurm_config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/locks.h"

#include "harness/tofa_harness_host.h"
#include "harness/tofa_harness_internal.h"

/* What the host has done so far (one thread drives it, see the header). */
static bool initialized = false;
static char conf_path[4096];
static char log_path[4096];
static void *nodestate_dl = NULL;
static void *ctld_dl = NULL;
static bool node_table_built = false;

static void _set_err(char *err, size_t err_size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void _set_err(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_size)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
}

int tofa_host_abi_version(void)
{
	return TOFA_HOST_ABI_VERSION;
}

const char *tofa_host_slurm_version(void)
{
	return SLURM_VERSION_STRING;
}

/* ---- the log: where plugins report what went wrong ---------------------- */

static long _log_size(void)
{
	struct stat st;

	if (!log_path[0] || stat(log_path, &st) != 0)
		return 0;
	return (long) st.st_size;
}

/* Appends to err the "error:"/"fatal:" lines logged since offset `from`
 * (without their time stamps), "; "-separated. */
static void _append_logged_errors(long from, char *err, size_t err_size)
{
	char line[2048];
	FILE *f;
	size_t used, start;

	if (!err || !err_size || !log_path[0] || !(f = fopen(log_path, "r")))
		return;
	if (fseek(f, from, SEEK_SET) != 0) {
		fclose(f);
		return;
	}
	start = strlen(err);
	while (fgets(line, sizeof(line), f)) {
		char *what = strstr(line, "error: ");
		if (!what)
			what = strstr(line, "fatal: ");
		if (!what)
			continue;
		line[strcspn(line, "\n")] = '\0';
		used = strlen(err);
		if (used + 3 >= err_size)
			break;
		snprintf(err + used, err_size - used, "%s%s",
			 used > start ? "; " : "", what);
	}
	fclose(f);
}

/* ---- slurm.conf and logging ---------------------------------------------- */

static int _start_log(int stderr_level, char *err, size_t err_size)
{
	static const log_level_t stderr_levels[] = {
		LOG_LEVEL_QUIET, LOG_LEVEL_ERROR, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG
	};
	log_options_t opts = LOG_OPTS_INITIALIZER;
	int fd;

	if (stderr_level < 0)
		stderr_level = 0;
	if (stderr_level > 3)
		stderr_level = 3;
	/* Slurm's log_init keeps going when the file cannot be opened; check
	 * first so that the caller learns it. */
	fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		_set_err(err, err_size, "cannot open the log file %s: %s",
			 log_path, strerror(errno));
		return -1;
	}
	close(fd);
	opts.stderr_level = stderr_levels[stderr_level];
	opts.syslog_level = LOG_LEVEL_QUIET;
	opts.logfile_level = LOG_LEVEL_INFO; /* debug: a line per node and round */
	if (log_init("tofa-harness", opts, SYSLOG_FACILITY_USER, log_path) != 0) {
		_set_err(err, err_size, "log_init(%s) failed", log_path);
		return -1;
	}
	return 0;
}

/* The node table as slurmctld's read_slurm_conf builds it. */
static void _build_node_table(void)
{
	init_node_conf();
	build_all_nodeline_info(false, 0);
	node_table_built = true;
}

/* slurm_conf_init and the node table call fatal() (exit) on some errors:
 * try them in a child first, which logs into the same file. */
static int _validate_in_child(char *err, size_t err_size)
{
	long from = _log_size();
	pid_t pid = fork();
	int status;

	if (pid < 0) {
		_set_err(err, err_size, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (slurm_conf_init(conf_path) != SLURM_SUCCESS)
			_exit(2);
		_build_node_table();
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			_set_err(err, err_size, "waitpid: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	_set_err(err, err_size, "%s: Slurm cannot read it (slurm_conf_init / NodeName lines%s): ",
		 conf_path, WIFSIGNALED(status) ? ", crashed" : "");
	_append_logged_errors(from, err, err_size);
	return -1;
}

/* The plugins' references must bind to this module: it must be in the
 * global scope (RTLD_GLOBAL) ahead of libslurmfull, which defines the spank_*
 * functions too. Checked as the dynamic linker will resolve the plugins'
 * references (global scope first): dlsym on the main program's handle
 * searches exactly the global scope (RTLD_DEFAULT from here would also
 * search this module's own local scope). */
static int _check_interposition(char *err, size_t err_size)
{
	static const char *names[] = {
		"spank_context", "spank_remote", "spank_option_register",
		"spank_job_control_setenv", "spank_job_control_getenv",
		"spank_job_control_unsetenv", "lock_slurmctld", "unlock_slurmctld", NULL
	};
	Dl_info self, found;
	void *global = dlopen(NULL, RTLD_NOW);

	if (!global || !dladdr((void *) _set_err, &self)) {
		_set_err(err, err_size, "dladdr failed on the host module itself");
		return -1;
	}
	for (int i = 0; names[i]; i++) {
		void *p = dlsym(global, names[i]);
		if (p && dladdr(p, &found) && found.dli_fbase == self.dli_fbase)
			continue;
		_set_err(err, err_size,
			 "symbol %s resolves to %s, not to %s: dlopen the host module with RTLD_NOW|RTLD_GLOBAL before any object that loads libslurmfull (the plugins would bind to libslurmfull's own SPANK functions)",
			 names[i], !p ? "nothing in the global scope" :
			 dladdr(p, &found) && found.dli_fname ? found.dli_fname : "another object",
			 self.dli_fname ? self.dli_fname : "tofa_harness_host.so");
		dlclose(global);
		return -1;
	}
	dlclose(global);
	return 0;
}

int tofa_host_init(const char *slurm_conf_path, const char *log_file, int stderr_level,
		   char *err, size_t err_size)
{
	char *slash;

	if (err && err_size)
		err[0] = '\0';
	if (!slurm_conf_path || !slurm_conf_path[0]) {
		_set_err(err, err_size, "tofa_host_init: no slurm.conf given");
		return -1;
	}
	if (initialized) {
		if (!strcmp(slurm_conf_path, conf_path))
			return 0;
		_set_err(err, err_size,
			 "tofa_host_init: already initialized with %s (one slurm.conf per process)",
			 conf_path);
		return -1;
	}
	if (_check_interposition(err, err_size) < 0)
		return -1;
	if (access(slurm_conf_path, R_OK) != 0) {
		_set_err(err, err_size, "%s: %s", slurm_conf_path, strerror(errno));
		return -1;
	}
	if (!realpath(slurm_conf_path, conf_path)) {
		_set_err(err, err_size, "%s: %s", slurm_conf_path, strerror(errno));
		return -1;
	}
	if (log_file && log_file[0]) {
		snprintf(log_path, sizeof(log_path), "%s", log_file);
	} else {
		snprintf(log_path, sizeof(log_path), "%s", conf_path);
		slash = strrchr(log_path, '/');
		snprintf(slash + 1, sizeof(log_path) - (slash + 1 - log_path),
			 "harness-host.log");
	}
	if (_start_log(stderr_level, err, err_size) < 0)
		return -1;
	if (_validate_in_child(err, err_size) < 0)
		return -1;
	/* Sets SLURM_CONF too, which get_extra_conf_path (tofa.conf) reads. */
	if (slurm_conf_init(conf_path) != SLURM_SUCCESS) {
		_set_err(err, err_size, "%s: slurm_conf_init failed (see %s)",
			 conf_path, log_path);
		return -1;
	}
	initialized = true;
	info("tofa-harness host: Slurm %s, slurm.conf %s, SlurmUser uid %u, AuthInfo %s",
	     SLURM_VERSION_STRING, conf_path, slurm_conf.slurm_user_id,
	     slurm_conf.authinfo ? slurm_conf.authinfo : "(none)");
	return 0;
}

/* ---- loading plugin objects ------------------------------------------------ */

/* dlopen with RTLD_NOW (every reference must bind now: a missing symbol is
 * named here rather than crashing later; Slurm itself uses RTLD_LAZY), then
 * the checks of Slurm's loader (plugin.c: _verify_syms). */
static void *_load(const char *path, const char *want_type, char *err, size_t err_size)
{
	const char *name, *type;
	const uint32_t *version;
	uint32_t mask = 0xffffff;
	void *dl;

	if (!path || !path[0]) {
		_set_err(err, err_size, "no plugin path given (want a %s plugin)", want_type);
		return NULL;
	}
	if (access(path, R_OK) != 0) {
		_set_err(err, err_size, "%s: %s", path, strerror(errno));
		return NULL;
	}
	dlerror();
	if (!(dl = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		const char *why = dlerror();
		_set_err(err, err_size, "dlopen(%s): %s%s", path, why ? why : "failed",
			 why && strstr(why, "undefined symbol") ?
			 " (was tofa_harness_host.so dlopen'ed with RTLD_GLOBAL first?)" : "");
		return NULL;
	}
	name = dlsym(dl, "plugin_name");
	type = dlsym(dl, "plugin_type");
	version = dlsym(dl, "plugin_version");
	if (!name || !type || !version) {
		_set_err(err, err_size, "%s is not a Slurm plugin: no symbol %s", path,
			 !name ? "plugin_name" : !type ? "plugin_type" : "plugin_version");
		dlclose(dl);
		return NULL;
	}
	if (strncmp(type, want_type, strlen(want_type)) != 0) {
		_set_err(err, err_size, "%s: plugin_type is \"%s\", expected \"%s\"",
			 path, type, want_type);
		dlclose(dl);
		return NULL;
	}
	if (!strcmp(type, "spank"))
		mask = 0xffff00; /* as Slurm: major and minor only */
	if ((*version & mask) != (SLURM_VERSION_NUMBER & mask)) {
		_set_err(err, err_size,
			 "%s: plugin_version %u.%02u.%u does not match this host's Slurm %s",
			 path, SLURM_VERSION_MAJOR(*version), SLURM_VERSION_MINOR(*version),
			 SLURM_VERSION_MICRO(*version), SLURM_VERSION_STRING);
		dlclose(dl);
		return NULL;
	}
	debug("tofa-harness host: loaded %s (%s, %s)", path, type, name);
	return dl;
}

static int _need_init(const char *what, char *err, size_t err_size)
{
	if (err && err_size)
		err[0] = '\0';
	if (initialized)
		return 0;
	_set_err(err, err_size, "%s: tofa_host_init has not succeeded", what);
	return -1;
}

/* ---- srun side: tofa_loadmatrix ------------------------------------------- */

int tofa_host_upload_matrix(const char *plugin_path, const char *matrix_path, char **graph_id,
			    char *err, size_t err_size)
{
	static const char *cleared[] = { "TOFA_GRAPH_ID", "TOFA_MATRIX", "TOFA_TASKS", NULL };
	long from;
	void *dl;
	int rc = -1, cb;

	if (graph_id)
		*graph_id = NULL;
	if (_need_init("tofa_host_upload_matrix", err, err_size) < 0)
		return -1;
	if (!graph_id || !matrix_path) {
		_set_err(err, err_size, "tofa_host_upload_matrix: NULL argument");
		return -1;
	}
	if (!(dl = _load(plugin_path, "spank", err, err_size)))
		return -1;
	for (int i = 0; cleared[i]; i++)
		unsetenv(cleared[i]);
	from = _log_size();
	tofa_harness_spank_begin(TOFA_HARNESS_CTX_LOCAL);
	if (tofa_harness_spank_call(dl, "slurm_spank_init") != 0) {
		_set_err(err, err_size, "%s: slurm_spank_init (local context) failed: ",
			 plugin_path);
		_append_logged_errors(from, err, err_size);
		goto out;
	}
	cb = tofa_harness_spank_option("tofa-matrix", matrix_path);
	if (cb == -2) {
		_set_err(err, err_size, "%s registered no option --tofa-matrix", plugin_path);
		goto out;
	}
	if (cb != 0) {
		_set_err(err, err_size, "--tofa-matrix=%s refused (%s): ", matrix_path,
			 plugin_path);
		_append_logged_errors(from, err, err_size);
		goto out;
	}
	if (tofa_harness_spank_call(dl, "slurm_spank_init_post_opt") != 0) {
		_set_err(err, err_size, "%s: slurm_spank_init_post_opt failed: ", plugin_path);
		_append_logged_errors(from, err, err_size);
		goto out;
	}
	if (!(*graph_id = tofa_harness_spank_job_env("TOFA_GRAPH_ID"))) {
		_set_err(err, err_size,
			 "%s: --tofa-matrix=%s succeeded but TOFA_GRAPH_ID was not set with spank_job_control_setenv",
			 plugin_path, matrix_path);
		goto out;
	}
	rc = 0;
out:
	tofa_harness_spank_begin(0);
	dlclose(dl);
	return rc;
}

/* ---- slurmd side: tofa_nodestate -------------------------------------------- */

int tofa_host_start_nodestate(const char *plugin_path, char *err, size_t err_size)
{
	int (*running)(void);
	long from;
	void *dl;

	if (_need_init("tofa_host_start_nodestate", err, err_size) < 0)
		return -1;
	if (nodestate_dl) {
		_set_err(err, err_size, "tofa_nodestate is already started in this process");
		return -1;
	}
	if (!(dl = _load(plugin_path, "spank", err, err_size)))
		return -1;
	from = _log_size();
	tofa_harness_spank_begin(TOFA_HARNESS_CTX_SLURMD);
	if (tofa_harness_spank_call(dl, "slurm_spank_init") != 0) {
		_set_err(err, err_size, "%s: slurm_spank_init (slurmd context) failed: ",
			 plugin_path);
		_append_logged_errors(from, err, err_size);
		dlclose(dl);
		return -1;
	}
	/* The plugin logs and ignores every failure (slurmd must start): ask
	 * libtofa, which the plugin linked, whether a responder runs. */
	*(void **) (&running) = dlsym(dl, "tofa_responder_running");
	if (running && !running()) {
		_set_err(err, err_size, "%s: no heartbeat responder is running: ", plugin_path);
		_append_logged_errors(from, err, err_size);
		if (!strstr(err, "error: "))
			strncat(err, "(is \"-D -N NAME\" on the process' command line?)",
				err_size - strlen(err) - 1);
		tofa_harness_spank_call(dl, "slurm_spank_slurmd_exit");
		dlclose(dl);
		return -1;
	}
	nodestate_dl = dl;
	return 0;
}

void tofa_host_stop_nodestate(void)
{
	if (!nodestate_dl)
		return;
	tofa_harness_spank_begin(TOFA_HARNESS_CTX_SLURMD);
	tofa_harness_spank_call(nodestate_dl, "slurm_spank_slurmd_exit");
	dlclose(nodestate_dl);
	nodestate_dl = NULL;
}

/* ---- slurmctld side: slurmctld_tofa ---------------------------------------- */

/* slurmctld's locks (src/slurmctld/locks.c): one rwlock per data type,
 * taken in the enum's order and released in reverse. */
static pthread_rwlock_t ctld_locks[5] = {
	PTHREAD_RWLOCK_INITIALIZER, PTHREAD_RWLOCK_INITIALIZER,
	PTHREAD_RWLOCK_INITIALIZER, PTHREAD_RWLOCK_INITIALIZER,
	PTHREAD_RWLOCK_INITIALIZER
};

static void _take(int i, lock_level_t level)
{
	if (level == READ_LOCK)
		pthread_rwlock_rdlock(&ctld_locks[i]);
	else if (level == WRITE_LOCK)
		pthread_rwlock_wrlock(&ctld_locks[i]);
}

static void _release(int i, lock_level_t level)
{
	if (level != NO_LOCK)
		pthread_rwlock_unlock(&ctld_locks[i]);
}

extern void lock_slurmctld(slurmctld_lock_t lock_levels)
{
	_take(CONF_LOCK, lock_levels.conf);
	_take(JOB_LOCK, lock_levels.job);
	_take(NODE_LOCK, lock_levels.node);
	_take(PART_LOCK, lock_levels.part);
	_take(FED_LOCK, lock_levels.fed);
}

extern void unlock_slurmctld(slurmctld_lock_t lock_levels)
{
	_release(FED_LOCK, lock_levels.fed);
	_release(PART_LOCK, lock_levels.part);
	_release(NODE_LOCK, lock_levels.node);
	_release(JOB_LOCK, lock_levels.job);
	_release(CONF_LOCK, lock_levels.conf);
}

static lock_level_t _level(int level)
{
	return level >= 2 ? WRITE_LOCK : level == 1 ? READ_LOCK : NO_LOCK;
}

void tofa_host_lock(int conf, int job, int node, int part, int fed)
{
	slurmctld_lock_t l = { .conf = _level(conf), .job = _level(job),
			       .node = _level(node), .part = _level(part),
			       .fed = _level(fed) };
	lock_slurmctld(l);
}

void tofa_host_unlock(int conf, int job, int node, int part, int fed)
{
	slurmctld_lock_t l = { .conf = _level(conf), .job = _level(job),
			       .node = _level(node), .part = _level(part),
			       .fed = _level(fed) };
	unlock_slurmctld(l);
}

int tofa_host_start_ctld(const char *plugin_path, char *err, size_t err_size)
{
	slurmctld_lock_t node_write = { .conf = NO_LOCK, .job = NO_LOCK, .node = WRITE_LOCK,
					.part = NO_LOCK, .fed = NO_LOCK };
	int (*init)(void);
	long from;
	void *dl;

	if (_need_init("tofa_host_start_ctld", err, err_size) < 0)
		return -1;
	if (ctld_dl) {
		_set_err(err, err_size, "slurmctld/tofa is already started in this process");
		return -1;
	}
	if (!(dl = _load(plugin_path, "slurmctld/", err, err_size)))
		return -1;
	*(void **) (&init) = dlsym(dl, "init");
	if (!init) {
		_set_err(err, err_size, "%s: no symbol init", plugin_path);
		dlclose(dl);
		return -1;
	}
	lock_slurmctld(node_write);
	if (!node_table_built)
		_build_node_table();
	unlock_slurmctld(node_write);
	info("tofa-harness host: node table of %s: %d nodes", conf_path, node_record_count);
	from = _log_size();
	if (init() != 0) {
		_set_err(err, err_size, "%s: init() failed: ", plugin_path);
		_append_logged_errors(from, err, err_size);
		dlclose(dl);
		return -1;
	}
	ctld_dl = dl;
	return 0;
}

void tofa_host_stop_ctld(void)
{
	int (*fini)(void);

	if (!ctld_dl)
		return;
	*(void **) (&fini) = dlsym(ctld_dl, "fini");
	if (fini)
		fini();
	dlclose(ctld_dl);
	ctld_dl = NULL;
}
