/*
 * tofa_loadmatrix (SPANK) - the seed's LoadMatrix plugin: srun, sbatch and
 * salloc accept
 *     --tofa-matrix=FILE     the job's communication graph (tofa.h formats)
 *     --tofa-pattern=SPEC    or a graph built from a pattern, e.g.
 *                            halo:ranks=8x8x4,cells=200x200x100 (docs/patterns.md)
 *     --tofa-strategy=NAME   mapping strategy (default: DefaultStrategy)
 *     --tofa-param=KEY=VALUE a strategy parameter (repeatable), e.g.
 *                            stencil=4x4x3 for the stencil strategies
 *
 * The option callback, in the submitting command, validates FILE locally
 * (a format error prints "FILE:LINE:COL: ..." and the command fails before
 * anything is submitted), uploads it to the TOFA service and exports
 * TOFA_GRAPH_ID / TOFA_MATRIX / TOFA_STRATEGY / TOFA_PARAMS into the command's environment
 * (cli_filter/tofa reads them in the same process). A pattern is built and
 * checked locally the same way, uploaded as its graph, and its TOFA_MATRIX is
 * "pattern:SPEC". slurm_spank_init_post_opt
 * attaches them to the job (spank_job_control_setenv; slurmctld sees
 * SPANK_TOFA_GRAPH_ID in the job's spank environment, tofa's select shim
 * uses it).
 *
 * Inside an allocation whose job already carries the same matrix
 * (SPANK_TOFA_MATRIX, e.g. an srun in a batch script inheriting the option)
 * the file is validated again but not uploaded a second time.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <slurm/slurm.h>
#include <slurm/spank.h>

#include "capi/tofa_service.h"
#include "common/tofa_glue.h"

SPANK_PLUGIN(tofa_loadmatrix, 1);

static const char log_prefix[] = "tofa";

enum { OPT_MATRIX = 1, OPT_STRATEGY = 2, OPT_PARAM = 3, OPT_PATTERN = 4 };

static int _matrix_cb(int val, const char *optarg, int remote);
static int _pattern_cb(int val, const char *optarg, int remote);
static int _strategy_cb(int val, const char *optarg, int remote);
static int _param_cb(int val, const char *optarg, int remote);

static struct spank_option options[] = {
	{ "tofa-matrix", "FILE",
	  "place tasks with TOFA using the communication graph in FILE "
	  "(matrix, edge list or MatrixMarket)", 1, OPT_MATRIX, _matrix_cb },
	{ "tofa-pattern", "SPEC",
	  "place tasks with TOFA using the graph of a pattern, e.g. "
	  "halo:ranks=8x8,cells=512x512 or allreduce:ranks=64,bytes=1G "
	  "(see tofa-map --list-patterns)", 1, OPT_PATTERN, _pattern_cb },
	{ "tofa-strategy", "NAME",
	  "TOFA mapping strategy (default: the service's DefaultStrategy)", 1,
	  OPT_STRATEGY, _strategy_cb },
	{ "tofa-param", "KEY=VALUE",
	  "a parameter of the TOFA strategy, e.g. stencil=4x4x3 (repeatable)",
	  1, OPT_PARAM, _param_cb },
	SPANK_OPTIONS_TABLE_END
};

/* The graph handled last, a matrix's real path or "pattern:SPEC" (sbatch
 * parses its options twice). */
static char done_path[PATH_MAX];

static int _strategy_cb(int val, const char *optarg, int remote)
{
	(void) val;
	if (remote)
		return 0;
	if (!optarg || !optarg[0]) {
		slurm_error("%s: --tofa-strategy needs a name", log_prefix);
		return -1;
	}
	for (int i = 0;; i++) {
		const char *name = tofa_strategy_name(i);
		if (!name) {
			slurm_error("%s: unknown strategy '%s' (see tofa-map --list-strategies)",
				    log_prefix, optarg);
			return -1;
		}
		if (!strcmp(name, optarg))
			break;
	}
	setenv(TOFA_ENV_STRATEGY, optarg, 1);
	return 0;
}

/* Checks the form KEY=VALUE (the service checks the rest, cli_filter/tofa
 * asks it before submission) and appends it to TOFA_PARAMS; sbatch parses
 * its options twice, so an item already there is not added again. */
static int _param_cb(int val, const char *optarg, int remote)
{
	const char *old = getenv(TOFA_ENV_PARAMS), *equals;
	size_t key_length;
	char *joined;
	(void) val;

	if (remote)
		return 0;
	equals = optarg ? strchr(optarg, '=') : NULL;
	key_length = equals ? (size_t) (equals - optarg) : 0;
	if (!equals || !key_length || !equals[1] || strchr(optarg, ';') ||
	    strpbrk(optarg, " \t\n")) {
		slurm_error("%s: --tofa-param '%s': expected KEY=VALUE (no blanks or ';')",
			    log_prefix, optarg ? optarg : "");
		return -1;
	}
	if (old && old[0]) {
		for (const char *item = old; item; item = strchr(item, ';')) {
			if (*item == ';')
				item++;
			if (!strncmp(item, optarg, strlen(optarg)) &&
			    (item[strlen(optarg)] == ';' || !item[strlen(optarg)]))
				return 0;
			if (!strncmp(item, optarg, key_length + 1)) {
				slurm_error("%s: --tofa-param %.*s given twice",
					    log_prefix, (int) key_length, optarg);
				return -1;
			}
		}
	}
	joined = malloc(strlen(old ? old : "") + strlen(optarg) + 2);
	if (!joined)
		return -1;
	sprintf(joined, "%s%s%s", old && old[0] ? old : "",
		old && old[0] ? ";" : "", optarg);
	setenv(TOFA_ENV_PARAMS, joined, 1);
	free(joined);
	return 0;
}

/* Refuses files larger than MaxGraphBytes before reading them. */
static int _check_size(const char *conf, const char *path)
{
	char text[64], err[512];
	struct stat st;
	long long limit;

	if (stat(path, &st) != 0) {
		slurm_error("%s: %s: %s", log_prefix, path, strerror(errno));
		return -1;
	}
	if (tofa_conf_get(conf, "MaxGraphBytes", text, sizeof(text), err,
			  sizeof(err)) != TOFA_OK)
		return 0; /* the service checks again */
	limit = strtoll(text, NULL, 10);
	if (limit > 0 && (long long) st.st_size > limit) {
		slurm_error("%s: %s: %lld bytes exceed MaxGraphBytes=%lld",
			    log_prefix, path, (long long) st.st_size, limit);
		return -1;
	}
	return 0;
}

/* Both graph options on this command's own line (an srun in a job may
 * inherit the job's option and give its own: its own is handled last and
 * wins). */
static bool _both_graph_options_given(void)
{
	if (!tofa_glue_command_line_has("--tofa-matrix", false, false) ||
	    !tofa_glue_command_line_has("--tofa-pattern", false, false))
		return false;
	slurm_error("%s: give one of --tofa-matrix and --tofa-pattern", log_prefix);
	return true;
}

/* Uploads the graph (a matrix's real path, or "pattern:SPEC") unless the
 * allocation this command runs in already carries it, and exports what
 * cli_filter/tofa and the job need. */
static int _use_graph(const char *conf, const char *key, const char *shown, int tasks)
{
	char err[1024], host[256], munge_socket[1024], count_text[32];
	const char *job_matrix = getenv("SPANK_" TOFA_ENV_MATRIX);
	const char *job_graph = getenv("SPANK_" TOFA_ENV_GRAPH_ID);
	char *graph_id = NULL;
	int rc;

	if (getenv("SLURM_JOB_ID") && job_matrix && job_graph && !strcmp(job_matrix, key)) {
		graph_id = strdup(job_graph);
	} else {
		tofa_glue_service_host(conf, host, sizeof(host));
		tofa_glue_munge_socket(munge_socket, sizeof(munge_socket));
		rc = strncmp(key, "pattern:", 8)
			     ? tofa_client_upload_graph(conf, host, munge_socket, key, &graph_id,
							NULL, err, sizeof(err))
			     : tofa_client_upload_pattern(conf, host, munge_socket, key + 8,
							  &graph_id, NULL, err, sizeof(err));
		if (rc != TOFA_OK) {
			slurm_error("%s: uploading %s to the TOFA service: %s", log_prefix, shown, err);
			return -1;
		}
	}
	if (!graph_id)
		return -1;
	snprintf(count_text, sizeof(count_text), "%d", tasks);
	setenv(TOFA_ENV_GRAPH_ID, graph_id, 1);
	setenv(TOFA_ENV_MATRIX, key, 1);
	setenv("TOFA_TASKS", count_text, 1);
	snprintf(done_path, sizeof(done_path), "%s", key);
	free(graph_id);
	return 0;
}

static int _matrix_cb(int val, const char *optarg, int remote)
{
	char path[PATH_MAX], err[1024];
	tofa_graph_t *graph = NULL;
	char *conf = NULL;
	int tasks, rc = -1;
	(void) val;

	if (remote)
		return 0;
	if (!optarg || !optarg[0]) {
		slurm_error("%s: --tofa-matrix needs a file name", log_prefix);
		return -1;
	}
	if (!realpath(optarg, path)) {
		slurm_error("%s: %s: %s", log_prefix, optarg, strerror(errno));
		return -1;
	}
	if (!strcmp(path, done_path))
		return 0;
	if (_both_graph_options_given())
		return -1;

	conf = tofa_glue_conf_path();
	if (_check_size(conf, path) < 0)
		goto out;
	/* Validate locally: the message names the file as the user wrote it. */
	if (tofa_graph_load(optarg, &graph, err, sizeof(err)) != TOFA_OK) {
		slurm_error("%s: %s", log_prefix, err);
		goto out;
	}
	tasks = tofa_graph_task_count(graph);
	tofa_graph_free(graph);
	rc = _use_graph(conf, path, optarg, tasks);
out:
	free(conf);
	return rc;
}

static int _pattern_cb(int val, const char *optarg, int remote)
{
	char key[PATH_MAX], err[1024];
	tofa_graph_t *graph = NULL;
	char *conf;
	int tasks, rc;
	(void) val;

	if (remote)
		return 0;
	if (!optarg || !optarg[0]) {
		slurm_error("%s: --tofa-pattern needs a pattern, e.g. halo:ranks=4x4,cells=100x100",
			    log_prefix);
		return -1;
	}
	if (snprintf(key, sizeof(key), "pattern:%s", optarg) >= (int) sizeof(key)) {
		slurm_error("%s: --tofa-pattern: longer than %d characters", log_prefix,
			    PATH_MAX - 9);
		return -1;
	}
	if (!strcmp(key, done_path))
		return 0;
	if (_both_graph_options_given())
		return -1;
	if (tofa_graph_from_pattern(optarg, &graph, err, sizeof(err)) != TOFA_OK) {
		slurm_error("%s: --tofa-pattern: %s", log_prefix, err);
		return -1;
	}
	tasks = tofa_graph_task_count(graph);
	tofa_graph_free(graph);
	conf = tofa_glue_conf_path();
	rc = _use_graph(conf, key, key, tasks);
	free(conf);
	return rc;
}

int slurm_spank_init(spank_t sp, int ac, char **av)
{
	(void) ac;
	(void) av;
	if (spank_context() == S_CTX_SLURMD ||
	    spank_context() == S_CTX_JOB_SCRIPT)
		return 0;
	for (int i = 0; options[i].name; i++) {
		spank_err_t err = spank_option_register(sp, &options[i]);
		if (err != ESPANK_SUCCESS) {
			slurm_error("%s: %s: cannot register --%s: %s",
				    log_prefix, __func__, options[i].name,
				    spank_strerror(err));
			return -1;
		}
	}
	return 0;
}

/* Attaches the graph to the job being submitted (local/allocator only). */
int slurm_spank_init_post_opt(spank_t sp, int ac, char **av)
{
	static const char *names[] = { TOFA_ENV_GRAPH_ID, TOFA_ENV_MATRIX,
				       TOFA_ENV_STRATEGY, TOFA_ENV_PARAMS,
				       NULL };
	(void) ac;
	(void) av;
	if (spank_remote(sp) || !done_path[0])
		return 0;
	for (int i = 0; names[i]; i++) {
		const char *value = getenv(names[i]);
		if (!value)
			continue;
		spank_err_t err = spank_job_control_setenv(sp, names[i], value, 1);
		if (err != ESPANK_SUCCESS) {
			slurm_error("%s: %s: cannot attach %s to the job: %s",
				    log_prefix, __func__, names[i],
				    spank_strerror(err));
			return -1;
		}
	}
	return 0;
}
