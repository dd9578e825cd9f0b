/*
 * The SPANK functions that srun/slurmd provide to SPANK plugins, for
 * tofa_harness_host.so (see tofa_harness_host.h). libslurmfull defines
 * spank_context, spank_remote, spank_option_register and the
 * spank_job_control_* functions too, but for its own plugin stack (a static
 * context set by spank_init, handles with its magic, srun's job environment
 * callbacks): these definitions take their place because the host is loaded
 * RTLD_GLOBAL before the plugins and precedes libslurmfull in the global
 * scope. spank_strerror is libslurmfull's (a plain table).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/spank.h>

#include "harness/tofa_harness_internal.h"

#define HANDLE_MAGIC 0x7f0a5a4bu
#define MAX_OPTIONS 64
#define MAX_ENV 64

struct spank_handle {
	unsigned magic;
};

static struct spank_handle handle = { HANDLE_MAGIC };
static spank_context_t context = S_CTX_ERROR;
static struct spank_option *options[MAX_OPTIONS];
static int option_count;
static char *env_names[MAX_ENV], *env_values[MAX_ENV];
static int env_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int _valid(spank_t sp)
{
	return sp == &handle && sp->magic == HANDLE_MAGIC;
}

void tofa_harness_spank_begin(int ctx)
{
	pthread_mutex_lock(&lock);
	context = (spank_context_t) ctx;
	option_count = 0;
	for (int i = 0; i < env_count; i++) {
		free(env_names[i]);
		free(env_values[i]);
	}
	env_count = 0;
	pthread_mutex_unlock(&lock);
}

int tofa_harness_spank_call(void *dl, const char *symbol)
{
	spank_f *fn;

	*(void **) (&fn) = dlsym(dl, symbol);
	if (!fn)
		return 0;
	return fn(&handle, 0, NULL);
}

int tofa_harness_spank_option(const char *name, const char *value)
{
	struct spank_option *opt = NULL;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < option_count; i++)
		if (!strcmp(options[i]->name, name))
			opt = options[i];
	pthread_mutex_unlock(&lock);
	if (!opt)
		return -2;
	if (!opt->cb)
		return 0;
	return opt->cb(opt->val, opt->has_arg ? value : NULL,
		       context == S_CTX_REMOTE);
}

char *tofa_harness_spank_job_env(const char *name)
{
	char *value = NULL;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < env_count; i++)
		if (!strcmp(env_names[i], name))
			value = strdup(env_values[i]);
	pthread_mutex_unlock(&lock);
	return value;
}

spank_context_t spank_context(void)
{
	return context;
}

int spank_remote(spank_t sp)
{
	if (!_valid(sp))
		return -1;
	return context == S_CTX_REMOTE;
}

/* As srun: options may be registered in local and allocator context from
 * slurm_spank_init; a second option of the same name is refused. */
spank_err_t spank_option_register(spank_t sp, struct spank_option *opt)
{
	spank_err_t rc = ESPANK_SUCCESS;

	if (!_valid(sp) || !opt || !opt->name)
		return ESPANK_BAD_ARG;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < option_count; i++)
		if (!strcmp(options[i]->name, opt->name))
			rc = ESPANK_BAD_ARG;
	if (rc == ESPANK_SUCCESS && option_count == MAX_OPTIONS)
		rc = ESPANK_NOSPACE;
	if (rc == ESPANK_SUCCESS)
		options[option_count++] = opt;
	pthread_mutex_unlock(&lock);
	return rc;
}

static int _find_env(const char *name)
{
	for (int i = 0; i < env_count; i++)
		if (!strcmp(env_names[i], name))
			return i;
	return -1;
}

/* The job control environment exists in local and allocator context only
 * (srun/sbatch/salloc), as in Slurm. */
spank_err_t spank_job_control_setenv(spank_t sp, const char *name,
				     const char *value, int overwrite)
{
	spank_err_t rc = ESPANK_SUCCESS;
	int i;

	if (!_valid(sp) || !name || !value)
		return ESPANK_BAD_ARG;
	if (context != S_CTX_LOCAL && context != S_CTX_ALLOCATOR)
		return ESPANK_NOT_AVAIL;
	pthread_mutex_lock(&lock);
	i = _find_env(name);
	if (i >= 0 && !overwrite) {
		rc = ESPANK_ENV_EXISTS;
	} else if (i >= 0) {
		char *copy = strdup(value);
		if (!copy) {
			rc = ESPANK_ERROR;
		} else {
			free(env_values[i]);
			env_values[i] = copy;
		}
	} else if (env_count == MAX_ENV) {
		rc = ESPANK_NOSPACE;
	} else {
		env_names[env_count] = strdup(name);
		env_values[env_count] = strdup(value);
		if (!env_names[env_count] || !env_values[env_count]) {
			free(env_names[env_count]);
			free(env_values[env_count]);
			rc = ESPANK_ERROR;
		} else {
			env_count++;
		}
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

spank_err_t spank_job_control_getenv(spank_t sp, const char *name, char *buf,
				     int len)
{
	spank_err_t rc = ESPANK_SUCCESS;
	int i;

	if (!_valid(sp) || !name || !buf || len <= 0)
		return ESPANK_BAD_ARG;
	if (context != S_CTX_LOCAL && context != S_CTX_ALLOCATOR)
		return ESPANK_NOT_AVAIL;
	pthread_mutex_lock(&lock);
	i = _find_env(name);
	if (i < 0) {
		rc = ESPANK_ENV_NOEXIST;
	} else if (strlen(env_values[i]) >= (size_t) len) {
		rc = ESPANK_NOSPACE;
	} else {
		strcpy(buf, env_values[i]);
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

spank_err_t spank_job_control_unsetenv(spank_t sp, const char *name)
{
	int i;

	if (!_valid(sp) || !name)
		return ESPANK_BAD_ARG;
	if (context != S_CTX_LOCAL && context != S_CTX_ALLOCATOR)
		return ESPANK_NOT_AVAIL;
	pthread_mutex_lock(&lock);
	i = _find_env(name);
	if (i >= 0) {
		free(env_names[i]);
		free(env_values[i]);
		env_names[i] = env_names[env_count - 1];
		env_values[i] = env_values[env_count - 1];
		env_count--;
	}
	pthread_mutex_unlock(&lock);
	return ESPANK_SUCCESS;
}
