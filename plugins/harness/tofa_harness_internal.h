/*
 * tofa_harness_internal.h - between the two files of tofa_harness_host.so:
 * tofa_harness_spank.c (public slurm/spank.h only: the SPANK functions a
 * Slurm daemon or srun would provide) and tofa_harness_host.c (Slurm's
 * internal headers: conf, log, node table, slurmctld locks). spank.h and
 * Slurm's internal log.h cannot share a file (see plugins/local.mk).
 */
#ifndef TOFA_HARNESS_INTERNAL_H
#define TOFA_HARNESS_INTERNAL_H

#include <stddef.h>

/* Not exported: the module's interface is tofa_harness_host.h and the
 * Slurm symbols it defines. */
#pragma GCC visibility push(hidden)

/* SPANK contexts the host plays. */
enum { TOFA_HARNESS_CTX_LOCAL = 1, TOFA_HARNESS_CTX_SLURMD = 4 };

/* Sets the context spank_context() reports and forgets the options and job
 * control environment of a previous run. */
void tofa_harness_spank_begin(int context);

/* Calls the plugin's SPANK entry point `symbol` (slurm_spank_init, ...) with
 * the host's handle and no arguments. Returns its result; 0 when the plugin
 * does not define it (optional, as in Slurm). */
int tofa_harness_spank_call(void *dl, const char *symbol);

/* Calls the callback of registered option --name with value, as srun does.
 * -2 when no option of that name was registered, else the callback's result. */
int tofa_harness_spank_option(const char *name, const char *value);

/* The value set for name with spank_job_control_setenv (malloc'ed) or NULL. */
char *tofa_harness_spank_job_env(const char *name);

#pragma GCC visibility pop

#endif /* TOFA_HARNESS_INTERNAL_H */
