/*
 * tofa_glue.h - what every tofa Slurm plugin needs from Slurm's configuration:
 * where tofa.conf is, which munge socket Slurm uses, where the TOFA service
 * listens, and a log callback that routes library messages into Slurm's log.
 *
 * It includes no Slurm header, so SPANK plugins (which must not include
 * Slurm's internal log.h next to spank.h) can use it too.
 */
#ifndef TOFA_GLUE_H
#define TOFA_GLUE_H

#include <stdbool.h>
#include <stddef.h>

/* Name of the job environment variables the plugins agree on. The SPANK
 * plugin sets them in the job control environment, where slurmctld stores
 * them with the "SPANK_" prefix. */
#define TOFA_ENV_GRAPH_ID "TOFA_GRAPH_ID"
#define TOFA_ENV_STRATEGY "TOFA_STRATEGY"
#define TOFA_ENV_MATRIX "TOFA_MATRIX"
/* --tofa-param KEY=VALUE options, joined "KEY=VALUE;KEY=VALUE". */
#define TOFA_ENV_PARAMS "TOFA_PARAMS"

/* Path of tofa.conf: the directory of slurm.conf + "/tofa.conf" (malloc'ed,
 * release with free()). */
extern char *tofa_glue_conf_path(void);

/* SlurmUser's uid, from the process' copy of slurm.conf. */
extern unsigned tofa_glue_slurm_user(void);

/* The munge socket named by AuthInfo=socket=PATH into buf, or "" when
 * AuthInfo names none (munge's default socket then). */
extern void tofa_glue_munge_socket(char *buf, size_t size);

/* "HOST" clients should contact: ServiceHost of tofa.conf when set, else the
 * address of the primary slurmctld. buf receives "" when neither is known. */
extern void tofa_glue_service_host(const char *conf_path, char *buf, size_t size);

/* The slurmd port of node `name` from slurm.conf, 0 when unknown (22.05:
 * slurm_conf_get_port; 24.11 and 26.05, which dropped it: the node table,
 * which slurmd has loaded before it runs SPANK plugins). */
extern unsigned tofa_glue_node_port(const char *name);

/* tofa_log_fn for the service and the responder: forwards to error(),
 * info() and debug() with a "tofa: " prefix. */
extern void tofa_glue_log(int level, const char *message);

/* Value of NAME in a "NAME=VALUE" array (exactly, or with a "SPANK_" prefix),
 * NULL when absent. Used on job_ptr->spank_job_env. */
extern const char *tofa_glue_env_find(char **env, unsigned count, const char *name);

/* True when an argument of this command starts with `prefix` (or, with
 * whole, equals it); `unreadable` when /proc/self/cmdline cannot be read. */
extern bool tofa_glue_command_line_has(const char *prefix, bool whole, bool unreadable);

#endif /* TOFA_GLUE_H */
