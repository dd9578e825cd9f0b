/*
 * A direct srun's job, allocated by cli_filter/tofa itself so that tofa's
 * select shim places it at scheduling time, exactly as an sbatch job.
 */
#ifndef TOFA_CLI_FILTER_ALLOCATION_H
#define TOFA_CLI_FILTER_ALLOCATION_H

#include <stdint.h>

#include "slurm/slurm.h"
#include "src/common/slurm_opt.h"

/* Submits the job srun would submit for `opt`, with the TOFA variables of
 * this process's environment in its spank environment, and waits until it
 * runs (Ctrl-C or SIGTERM while it is pending cancels it). NULL, with the
 * error logged, when Slurm refuses it. */
resource_allocation_response_msg_t *tofa_allocate_direct_job(slurm_opt_t *opt,
							      const char *plugin_type);

/* From now on the job ends with this srun: completed with srun's exit
 * status when it exits, cancelled by a shepherd process if srun dies
 * without exiting (SIGKILL), as srun does for the jobs it allocates. */
void tofa_end_job_with_srun(uint32_t job_id, const char *plugin_type);

#endif
