# Slurm plugins: thin C shims over libtofa (common/capi/tofa.h, common/capi/tofa_service.h).
# Built only when configure found a configured Slurm source tree (internal
# headers, see --with-slurm-source); installed into $(tofaplugindir), which
# the administrator adds to PluginDir in slurm.conf. The select shim is
# select/cons_tres itself (plugins/select/select_cons_tres.c), so it lives in
# a directory of its own, put first on PluginDir to switch TOFA node choice on.
tofaplugindir = $(TOFA_PLUGINDIR)
tofaselectdir = $(TOFA_PLUGINDIR)/select

TOFA_PLUGIN_SOURCES_COMMON = plugins/common/slurm_config.h plugins/common/slurm_compat.h \
	plugins/common/tofa_glue.h plugins/common/tofa_glue.c
# The node choice's half the release shims share (slurmctld only).
TOFA_PLUGIN_SOURCES_JOB = plugins/common/tofa_job.h plugins/common/tofa_job.c
TOFA_PLUGIN_CPPFLAGS = -DTOFA_SLURM_CONFIG_H='"$(SLURM_SRC)/config.h"' -I$(SLURM_SRC) -I$(top_srcdir)/common -I$(top_srcdir)/plugins
TOFA_PLUGIN_CFLAGS = -std=gnu11 $(TOFA_CFLAGS)
TOFA_PLUGIN_LDFLAGS = -module -avoid-version -shared -L$(SLURM_LIBDIR)
TOFA_PLUGIN_LIBADD = common/libtofa.la -lslurmfull

EXTRA_DIST += plugins/README.md plugins/conf/slurm.conf.example \
	plugins/conf/plugstack.conf.example plugins/conf/tofa.conf.example \
	tests/integration/tofa_cluster.sh tests/integration/release_cluster.sh

# Which plugins each Slurm release needs (docs/slurm-releases.md):
#   22.05: topology/tofa (ranking), select/cons_tres shim (node choice),
#          slurmctld/tofa (service), cli_filter/tofa, the two SPANK plugins;
#   24.11, 26.05: topology/tofa (ranking, node choice in topology_p_eval_nodes,
#          the service: no SlurmctldPlugstack there), cli_filter/tofa, the two
#          SPANK plugins. configure decides from the Slurm tree it was given.
EXTRA_DIST += plugins/topology_tofa_eval.c
if BUILD_PLUGINS
tofaplugin_LTLIBRARIES = \
	plugins/topology_tofa.la \
	plugins/cli_filter_tofa.la \
	plugins/tofa_loadmatrix.la \
	plugins/tofa_nodestate.la

plugins_topology_tofa_la_CPPFLAGS = $(TOFA_PLUGIN_CPPFLAGS)
plugins_topology_tofa_la_CFLAGS = $(TOFA_PLUGIN_CFLAGS)
plugins_topology_tofa_la_LDFLAGS = $(TOFA_PLUGIN_LDFLAGS)
if SLURM_SELECT_SHIM
plugins_topology_tofa_la_SOURCES = plugins/topology_tofa.c $(TOFA_PLUGIN_SOURCES_COMMON)
plugins_topology_tofa_la_LIBADD = $(TOFA_PLUGIN_LIBADD)
else
# Slurm's generic node choice (common_topo_choose_nodes) is in the
# convenience library every topology plugin of Slurm links: it comes from
# the built tree scripts/slurm-release.sh keeps.
plugins_topology_tofa_la_SOURCES = plugins/topology_tofa.c plugins/topology_tofa_eval.c \
	plugins/common/tofa_ctld.h plugins/common/tofa_ctld.c $(TOFA_PLUGIN_SOURCES_COMMON) \
	$(TOFA_PLUGIN_SOURCES_JOB)
plugins_topology_tofa_la_LIBADD = $(TOFA_PLUGIN_LIBADD) -ldl \
	$(SLURM_SRC)/src/plugins/topology/common/libtopology_common.la
endif

if SLURM_HAS_SLURMCTLD_PLUGSTACK
tofaplugin_LTLIBRARIES += plugins/slurmctld_tofa.la
endif
plugins_slurmctld_tofa_la_SOURCES = plugins/slurmctld_tofa.c plugins/common/tofa_ctld.h \
	plugins/common/tofa_ctld.c $(TOFA_PLUGIN_SOURCES_COMMON)
plugins_slurmctld_tofa_la_CPPFLAGS = $(TOFA_PLUGIN_CPPFLAGS)
plugins_slurmctld_tofa_la_CFLAGS = $(TOFA_PLUGIN_CFLAGS)
plugins_slurmctld_tofa_la_LDFLAGS = $(TOFA_PLUGIN_LDFLAGS)
plugins_slurmctld_tofa_la_LIBADD = $(TOFA_PLUGIN_LIBADD) -ldl

if SLURM_SELECT_SHIM
tofaselect_LTLIBRARIES = plugins/select/select_cons_tres.la
endif
plugins_select_select_cons_tres_la_SOURCES = plugins/select/select_cons_tres.c $(TOFA_PLUGIN_SOURCES_COMMON) \
	$(TOFA_PLUGIN_SOURCES_JOB)
plugins_select_select_cons_tres_la_CPPFLAGS = $(TOFA_PLUGIN_CPPFLAGS)
plugins_select_select_cons_tres_la_CFLAGS = $(TOFA_PLUGIN_CFLAGS)
plugins_select_select_cons_tres_la_LDFLAGS = $(TOFA_PLUGIN_LDFLAGS)
plugins_select_select_cons_tres_la_LIBADD = $(TOFA_PLUGIN_LIBADD) -ldl

plugins_cli_filter_tofa_la_SOURCES = plugins/cli_filter_tofa.c plugins/cli_filter_allocation.h \
	plugins/cli_filter_allocation.c $(TOFA_PLUGIN_SOURCES_COMMON)
plugins_cli_filter_tofa_la_CPPFLAGS = $(TOFA_PLUGIN_CPPFLAGS)
plugins_cli_filter_tofa_la_CFLAGS = $(TOFA_PLUGIN_CFLAGS)
plugins_cli_filter_tofa_la_LDFLAGS = $(TOFA_PLUGIN_LDFLAGS)
plugins_cli_filter_tofa_la_LIBADD = $(TOFA_PLUGIN_LIBADD)

# SPANK plugins: spank.h clashes with Slurm's internal log.h, so these two
# include only public headers; the glue file brings what they need inside.
plugins_tofa_loadmatrix_la_SOURCES = plugins/tofa_loadmatrix.c $(TOFA_PLUGIN_SOURCES_COMMON)
plugins_tofa_loadmatrix_la_CPPFLAGS = $(TOFA_PLUGIN_CPPFLAGS)
plugins_tofa_loadmatrix_la_CFLAGS = $(TOFA_PLUGIN_CFLAGS)
plugins_tofa_loadmatrix_la_LDFLAGS = $(TOFA_PLUGIN_LDFLAGS)
plugins_tofa_loadmatrix_la_LIBADD = $(TOFA_PLUGIN_LIBADD)

plugins_tofa_nodestate_la_SOURCES = plugins/tofa_nodestate.c $(TOFA_PLUGIN_SOURCES_COMMON)
plugins_tofa_nodestate_la_CPPFLAGS = $(TOFA_PLUGIN_CPPFLAGS)
plugins_tofa_nodestate_la_CFLAGS = $(TOFA_PLUGIN_CFLAGS)
plugins_tofa_nodestate_la_LDFLAGS = $(TOFA_PLUGIN_LDFLAGS)
plugins_tofa_nodestate_la_LIBADD = $(TOFA_PLUGIN_LIBADD)

# Helper of tests/integration/tofa_cluster.sh: one raw request to the service.
check_PROGRAMS += tests/integration/tofa_query
tests_integration_tofa_query_SOURCES = tests/integration/tofa_query.c
tests_integration_tofa_query_CPPFLAGS = -I$(top_srcdir)/common
tests_integration_tofa_query_CFLAGS = -std=gnu11 $(TOFA_CFLAGS)
tests_integration_tofa_query_LDADD = common/libtofa.la
endif
