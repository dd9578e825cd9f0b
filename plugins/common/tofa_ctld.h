/*
 * tofa_ctld.h - the TOFA service inside slurmctld (common/capi/tofa_service.h),
 * with the thread that pushes Slurm's node table and the graphs that jobs
 * still reference to it every few seconds (and retries starting it).
 *
 * Who starts it depends on the Slurm release: slurmctld/tofa
 * (SlurmctldPlugstack, up to 22.05); topology/tofa where SlurmctldPlugstack
 * is gone (24.11, 26.05). Both call only these two functions, from their
 * init() and fini(), in slurmctld.
 */
#ifndef TOFA_CTLD_H
#define TOFA_CTLD_H

/* Starts the push thread (which starts the service); `who` prefixes log
 * lines. Never fails slurmctld: errors are logged. */
extern void tofa_ctld_start(const char *who);

/* Stops the thread and the service; safe to call when not started. */
extern void tofa_ctld_stop(void);

#endif /* TOFA_CTLD_H */
