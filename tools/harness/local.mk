# tofa-harness: the plugins outside slurmctld on a synthetic cluster with a
# job stream (man/tofa-harness.1). Slurm-independent: it dlopen()s the Slurm
# host module plugins/harness/tofa_harness_host.so (plugins/harness/local.mk)
# and the plugin objects at run time.
bin_PROGRAMS += tools/harness/tofa-harness
tools_harness_tofa_harness_SOURCES = tools/harness/tofa_harness.cpp \
	tools/harness/cluster_files.hpp tools/harness/cluster_files.cpp \
	tools/harness/failure_model.hpp tools/harness/failure_model.cpp \
	tools/harness/plugin_host.hpp tools/harness/plugin_host.cpp \
	tools/harness/processes.hpp tools/harness/processes.cpp \
	tools/harness/node_processes.hpp tools/harness/node_processes.cpp \
	tools/harness/heartbeat_phase.hpp tools/harness/heartbeat_phase.cpp \
	tools/harness/stream_phase.hpp tools/harness/stream_phase.cpp \
	tools/harness/report.hpp tools/harness/report.cpp \
	tools/harness/job_graphs.hpp tools/harness/job_graphs.cpp
tools_harness_tofa_harness_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools \
	-DTOFA_PLUGIN_INSTALL_DIR='"$(TOFA_PLUGINDIR)"' \
	-DTOFA_HARNESS_CHARTS='"$(pkgdatadir)/harness-charts.py"'
tools_harness_tofa_harness_LDADD = tools/harness/libharness_stream.la common/libtofa.la -ldl

dist_pkgdata_DATA = scripts/harness-charts.py scripts/lib/svg_lines.py scripts/lib/svg_bars.py
