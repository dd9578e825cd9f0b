/*
 * slurmctld/tofa (SlurmctldPlugstack) - runs the TOFA service inside
 * slurmctld: graph store, heartbeats to the tofa_nodestate responders,
 * outage model and placements (common/capi/tofa_service.h).
 *
 * init() starts the service and a small thread that pushes Slurm's node table
 * (name, NodeAddr, slurmd port) to it every few seconds, under a read lock on
 * nodes (plugins/common/tofa_ctld.c). If the service cannot start (e.g. ServicePort is taken, tofa.conf is
 * broken) the error is logged and the thread retries; slurmctld keeps
 * running either way. fini() stops the thread and the service.
 */
#include "common/slurm_config.h"

#include <stdio.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/read_config.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "capi/tofa_service.h"
#include "common/tofa_ctld.h"

const char plugin_name[] = "slurmctld tofa plugin (TOFA service)";
const char plugin_type[] = "slurmctld/tofa";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* The service and its node thread: plugins/common/tofa_ctld.c (shared with
 * topology/tofa, which runs them on releases without SlurmctldPlugstack). */
extern int init(void)
{
	tofa_ctld_start(plugin_type);
	verbose("%s: %s loaded", plugin_type, __func__);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	tofa_ctld_stop();
	return SLURM_SUCCESS;
}

static void _add_pair(List pairs, const char *name, const char *value)
{
	config_key_pair_t *pair = xmalloc(sizeof(*pair));

	pair->name = xstrdup(name);
	pair->value = xstrdup(value);
	list_append(pairs, pair);
}

/* Shown by "scontrol show config" under the plugin's name. */
extern void slurmctld_plugstack_p_get_config(config_plugin_params_t *p)
{
	char port[32];

	xstrcat(p->name, plugin_type);
	if (!p->key_pairs)
		return;
	snprintf(port, sizeof(port), "%d", tofa_service_port());
	_add_pair(p->key_pairs, "ServiceRunning",
		  tofa_service_running() ? "yes" : "no");
	_add_pair(p->key_pairs, "ServicePort", port);
}
