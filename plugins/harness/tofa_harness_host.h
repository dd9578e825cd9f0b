/*
 * tofa_harness_host.h - runs tofa's real Slurm plugin objects outside Slurm's
 * daemons (the Slurm-release-dependent half of tofa-harness).
 *
 * tofa_harness_host.so is built against the same Slurm release as the
 * plugins and links the same libslurmfull. The caller dlopen()s it with
 * RTLD_NOW | RTLD_GLOBAL BEFORE any plugin object is loaded: the plugins'
 * references to spank_context, spank_remote, spank_option_register,
 * spank_job_control_setenv/getenv/unsetenv, lock_slurmctld and
 * unlock_slurmctld then bind to this module's definitions (it precedes
 * libslurmfull, which defines its own spank_* for its plugstack, in the
 * global lookup scope). Everything else (slurm.conf, logging, xmalloc, the
 * node table, slurm_conf_get_port, spank_strerror) is libslurmfull's own.
 *
 * All functions are C and never exit the process (Slurm's fatal() inside
 * slurm_conf_init or the node table is caught by validating slurm.conf in a
 * forked child first). Failures return -1 with a NUL-terminated reason in err
 * (naming the file and symbol, and, for a plugin that only logged its error,
 * the error lines it wrote to the log). No Slurm type appears here.
 *
 * Not thread-safe: call from one thread. The plugins' own threads (service,
 * node push, responder) run concurrently and are fine.
 */
#ifndef TOFA_HARNESS_HOST_H
#define TOFA_HARNESS_HOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The ABI of this header; tofa_host_abi_version() returns it. */
#define TOFA_HOST_ABI_VERSION 1

int tofa_host_abi_version(void);

/* The Slurm release the module was built against, e.g. "22.05.8". */
const char *tofa_host_slurm_version(void);

/*
 * Reads slurm_conf_path with libslurmfull's slurm_conf_init (it also sets
 * SLURM_CONF, from which the plugins find tofa.conf beside it) and starts
 * Slurm's logging into log_path (NULL: "<dir of slurm.conf>/harness-host.log"),
 * at info level; stderr_level 0 = nothing on stderr, 1 = errors, 2 = info,
 * 3 = debug. Once per process (a second call with the same path returns 0).
 */
int tofa_host_init(const char *slurm_conf_path, const char *log_path, int stderr_level,
                   char *err, size_t err_size);

/*
 * srun side (S_CTX_LOCAL), one call = one srun --tofa-matrix=MATRIX: loads
 * tofa_loadmatrix.so, runs slurm_spank_init, the callback the plugin
 * registered for --tofa-matrix with matrix_path (as srun does), then
 * slurm_spank_init_post_opt; *graph_id receives the TOFA_GRAPH_ID it attached
 * with spank_job_control_setenv (malloc'ed, free()). The plugin is unloaded
 * again. Like srun, the plugin validates the file locally, uploads it to the
 * service (ServiceHost/ServicePort of tofa.conf, else SlurmctldHost) and
 * exports TOFA_GRAPH_ID, TOFA_MATRIX and TOFA_TASKS into this process'
 * environment; these three are cleared before the call.
 */
int tofa_host_upload_matrix(const char *plugin_path, const char *matrix_path, char **graph_id,
                            char *err, size_t err_size);

/*
 * slurmd side (S_CTX_SLURMD): loads tofa_nodestate.so and runs
 * slurm_spank_init. The plugin reads the node name from /proc/self/cmdline
 * as in slurmd, so the calling process' command line must carry "-D -N NAME"
 * (-D: start the responder now, not after a daemonizing fork). It fails when
 * the plugin ran but no responder is running (reason from the log).
 * Once per process.
 */
int tofa_host_start_nodestate(const char *plugin_path, char *err, size_t err_size);
void tofa_host_stop_nodestate(void); /* slurm_spank_slurmd_exit, unload */

/*
 * slurmctld side: builds Slurm's node table from slurm.conf's NodeName lines
 * (libslurmfull's init_node_conf + build_all_nodeline_info, as slurmctld's
 * read_slurm_conf does), loads slurmctld_tofa.so (plugin_type/version checked
 * as Slurm's loader does) and calls its init(): its thread starts the TOFA
 * service (tofa_service_* in libtofa, which the caller then drives directly)
 * and pushes the node table to it every 3 s under lock_slurmctld(node READ).
 * Returns once init() returned; poll tofa_service_running().
 */
int tofa_host_start_ctld(const char *plugin_path, char *err, size_t err_size);
void tofa_host_stop_ctld(void); /* fini(), unload */

/*
 * slurmctld's five locks (a real rwlock each, taken in slurmctld's order),
 * for a caller that changes what the plugins read under them. Levels per
 * entity: 0 none, 1 read, 2 write.
 */
void tofa_host_lock(int conf, int job, int node, int part, int fed);
void tofa_host_unlock(int conf, int job, int node, int part, int fed);

#ifdef __cplusplus
}
#endif

#endif /* TOFA_HARNESS_HOST_H */
