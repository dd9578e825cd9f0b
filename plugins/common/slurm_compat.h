/*
 * slurm_compat.h - the few Slurm types and calls whose shape differs between
 * the releases tofa supports (22.05, 24.11, 26.05), for the plugin shims.
 * Include after Slurm's own headers. docs/slurm-releases.md lists them all.
 */
#ifndef TOFA_PLUGINS_SLURM_COMPAT_H
#define TOFA_PLUGINS_SLURM_COMPAT_H

/*
 * Version tests name the releases tofa was checked against: 22.05 (the old
 * form), 24.11 ("24, 11, 0": changed by 24.11) and 26.05 ("26, 5, 0": changed
 * after 24.11); releases in between are not supported.
 */

/* hostlist_t: a pointer type in 22.05, the struct itself in 24.11 and 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
typedef hostlist_t *tofa_hostlist_t;
#else
typedef hostlist_t tofa_hostlist_t;
#endif

/* A job record's details (slurmctld.h): struct job_details in 22.05, the
 * job_details_t typedef in 24.11 and 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#define tofa_job_details_t job_details_t
#else
#define tofa_job_details_t struct job_details
#endif

/* A node's allocated CPUs as the client sees them (node_info_t): through
 * the select plugin's node info in 22.05 and 24.11, a plain field in 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define TOFA_NODE_ALLOC_CPUS(node, out) (*(out) = (node)->alloc_cpus)
#else
#define TOFA_NODE_ALLOC_CPUS(node, out) \
	slurm_get_select_nodeinfo((node)->select_nodeinfo, \
				  SELECT_NODEDATA_SUBCNT, \
				  NODE_STATE_ALLOCATED, (out))
#endif

/* The job id of an allocation response: job_id in 22.05 and 24.11,
 * step_id.job_id in 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0)
#define TOFA_RESP_JOB_ID(resp) ((resp)->step_id.job_id)
#else
#define TOFA_RESP_JOB_ID(resp) ((resp)->job_id)
#endif

/* slurm_get_errno() (which returned errno) is gone in 24.11 and 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#define TOFA_SLURM_ERRNO() (errno)
#else
#define TOFA_SLURM_ERRNO() slurm_get_errno()
#endif

/* node_name2bitmap() takes a 4th argument (hostlist of unknown names) in
 * 24.11 and 26.05. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#define TOFA_NODE_NAME2BITMAP(names, best_effort, bitmap) \
	node_name2bitmap((names), (best_effort), (bitmap), NULL)
#else
#define TOFA_NODE_NAME2BITMAP(names, best_effort, bitmap) \
	node_name2bitmap((names), (best_effort), (bitmap))
#endif

/* srun refuses -N given on its command line with an arbitrary layout in
 * 24.11 and 26.05 ("--nodes is incompatible with --distribution=arbitrary");
 * 22.05 takes both. */
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#define TOFA_ARBITRARY_TAKES_NODE_COUNT 0
#else
#define TOFA_ARBITRARY_TAKES_NODE_COUNT 1
#endif

#endif /* TOFA_PLUGINS_SLURM_COMPAT_H */
