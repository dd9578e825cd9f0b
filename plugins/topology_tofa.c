/*
 * topology/tofa - torus coordinates from tofa.conf; Slurm's node table is
 * ranked along the torus' snake order so that Slurm's default (consecutive)
 * allocations are compact on the torus.
 *
 * tofa.conf sits beside slurm.conf (get_extra_conf_path). It is read when
 * slurmctld builds its node table (topo_generate_node_ranking runs before
 * topo_build_config). Errors:
 *   - at slurmctld startup a malformed or inconsistent tofa.conf is fatal,
 *     with "FILE:LINE:COL: reason" (as Slurm does for a bad slurm.conf);
 *   - on "scontrol reconfigure" the error is logged and the plugin turns
 *     inert (nodes sorted by name, as with topology/none): a running
 *     slurmctld is never taken down.
 * Inconsistent means: a tofa.conf node that slurm.conf does not define
 * (reported with its tofa.conf line) or a slurm.conf node that tofa.conf
 * does not place. The library reports syntax errors, unknown keys,
 * duplicate names and coordinates with their line and column.
 */
#include "common/slurm_config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/slurm_xlator.h"

#include "src/common/hostlist.h"
#include "src/common/log.h"
#include "src/common/node_conf.h"
#include "src/common/run_in_daemon.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"

#include "capi/tofa.h"
#include "capi/tofa_service.h"
#include "common/slurm_compat.h"
#include "common/tofa_glue.h"

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0)
/* Slurm 22.05: the plugin's entry points are at the end of this file. On
 * 24.11 and 26.05 they are in topology_tofa_eval.c, which also
 * chooses the nodes of TOFA jobs (topology_p_eval_nodes) and runs the TOFA
 * service; this file then only gives it the torus ranking. */
const char plugin_name[] = "topology tofa plugin (torus, snake-order ranking)";
const char plugin_type[] = "topology/tofa";
const uint32_t plugin_version = SLURM_VERSION_NUMBER;
#else
extern const char plugin_type[];
#endif

extern bool tofa_topo_generate_ranking(void);

static bool ranked_once = false;

/* The tofa.conf line whose NodeName= hostlist contains name, 0 if none. */
static int _line_of_node(const char *path, const char *name)
{
	FILE *in = fopen(path, "r");
	char *line = NULL, *at, *end, *host;
	size_t cap = 0;
	int number = 0, found = 0;

	if (!in)
		return 0;
	while (!found && getline(&line, &cap, in) >= 0) {
		number++;
		if ((at = strchr(line, '#')))
			*at = '\0';
		if (!(at = xstrcasestr(line, "NodeName=")))
			continue;
		at += strlen("NodeName=");
		end = at + strcspn(at, " \t\r\n");
		*end = '\0';
		tofa_hostlist_t hl = hostlist_create(at);
		if (!hl)
			continue;
		while (!found && (host = hostlist_shift(hl))) {
			if (!strcmp(host, name))
				found = number;
			free(host);
		}
		hostlist_destroy(hl);
	}
	free(line);
	fclose(in);
	return found;
}

/*
 * Sets node_rank of every Slurm node to its position in the snake order.
 * Returns SLURM_SUCCESS or SLURM_ERROR with err set.
 */
static int _rank_nodes(const char *path, char *err, size_t err_size)
{
	tofa_topology_t *topo;
	node_record_t *node_ptr;
	int count, *order = NULL, *rank_of = NULL, rc = SLURM_ERROR;

	if (tofa_topology_load(path, &topo, err, err_size) != TOFA_OK)
		return SLURM_ERROR;
	count = tofa_topology_node_count(topo);
	order = xcalloc(count, sizeof(int));
	rank_of = xcalloc(count, sizeof(int));
	if (tofa_topology_snake_order(topo, order, count) != TOFA_OK) {
		snprintf(err, err_size, "%s: cannot compute the snake order",
			 path);
		goto out;
	}
	for (int r = 0; r < count; r++)
		rank_of[order[r]] = r;

	/* Every torus node must be a Slurm node ... */
	for (int id = 0; id < count; id++) {
		const char *name = tofa_topology_node_name(topo, id);
		if (name && !find_node_record((char *) name)) {
			snprintf(err, err_size,
				 "%s:%d: node '%s' is not defined in slurm.conf",
				 path, _line_of_node(path, name), name);
			goto out;
		}
	}
	/* ... and every Slurm node a torus node. */
	for (int i = 0; (node_ptr = next_node(&i)); i++) {
		int id = tofa_topology_node_index(topo, node_ptr->name);
		if (id < 0) {
			snprintf(err, err_size,
				 "%s: slurm.conf node '%s' has no NodeName/Coord entry",
				 path, node_ptr->name);
			goto out;
		}
	}
	for (int i = 0; (node_ptr = next_node(&i)); i++)
		node_ptr->node_rank =
			rank_of[tofa_topology_node_index(topo, node_ptr->name)];
	rc = SLURM_SUCCESS;
out:
	xfree(order);
	xfree(rank_of);
	tofa_topology_free(topo);
	return rc;
}

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0)
extern int init(void)
{
	verbose("%s: %s loaded", plugin_type, __func__);
	return SLURM_SUCCESS;
}

extern int fini(void)
{
	return SLURM_SUCCESS;
}

/* Nothing to build: the ranking is done in topo_generate_node_ranking and the
 * TOFA service reads tofa.conf itself. No switch records: cons_tres then
 * selects in node table order, i.e. along the snake. */
extern int topo_build_config(void)
{
	return SLURM_SUCCESS;
}

extern bool topo_generate_node_ranking(void)
{
	return tofa_topo_generate_ranking();
}
#endif /* Slurm 22.05 */

/* Ranks Slurm's node table along the snake order (slurmctld only): true when
 * done; a broken tofa.conf is fatal the first time, logged later. */
extern bool tofa_topo_generate_ranking(void)
{
	/* Logged as the Slurm entry point it runs for. */
#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0)
	static const char ranking_func[] = "topo_generate_node_ranking";
#else
	static const char ranking_func[] = "topology_p_generate_node_ranking";
#endif
	char err[1024];
	char *path;
	int rc;

	if (!running_in_slurmctld())
		return false;
	path = tofa_glue_conf_path();
	rc = _rank_nodes(path, err, sizeof(err));
	free(path);
	if (rc == SLURM_SUCCESS) {
		info("%s: %s: %d nodes ranked along the torus snake order",
		     plugin_type, ranking_func, node_record_count);
		ranked_once = true;
		return true;
	}
	if (!ranked_once)
		fatal("%s: %s: %s", plugin_type, ranking_func, err);
	error("%s: %s: %s; nodes keep name order until tofa.conf is fixed",
	      plugin_type, ranking_func, err);
	return false;
}

#if SLURM_VERSION_NUMBER < SLURM_VERSION_NUM(24, 11, 0)
/* The node's name as its address, like topology/none: tofa adds no switch
 * hierarchy for Slurm's route plugins to use. */
extern int topo_get_node_addr(char *node_name, char **paddr, char **ppattern)
{
	if (find_node_record(node_name) == NULL)
		return SLURM_ERROR;
	*paddr = xstrdup(node_name);
	*ppattern = xstrdup("node");
	return SLURM_SUCCESS;
}
#endif /* Slurm 22.05 */
