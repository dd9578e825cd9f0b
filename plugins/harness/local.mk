# tofa-harness's Slurm host: tofa_harness_host.so runs the real plugin objects
# (tofa_loadmatrix, tofa_nodestate, slurmctld_tofa) outside Slurm's daemons.
# Built against the same Slurm tree as the plugins (everything that depends
# on the Slurm release stays in plugins/); installed beside them. The
# Slurm-independent tool dlopen()s it RTLD_NOW|RTLD_GLOBAL before the plugins
# (see plugins/harness/tofa_harness_host.h).
EXTRA_DIST += plugins/harness/tofa_harness_host.h tests/harness/test_plugin_host.sh \
	tests/harness/test_harness_run.sh \
	tools/harness/start-munged.sh
if BUILD_PLUGINS
tofaplugin_LTLIBRARIES += plugins/harness/tofa_harness_host.la
plugins_harness_tofa_harness_host_la_SOURCES = plugins/harness/tofa_harness_host.c \
	plugins/harness/tofa_harness_host.h plugins/harness/tofa_harness_spank.c \
	plugins/harness/tofa_harness_internal.h plugins/common/slurm_config.h
plugins_harness_tofa_harness_host_la_CPPFLAGS = $(TOFA_PLUGIN_CPPFLAGS)
plugins_harness_tofa_harness_host_la_CFLAGS = $(TOFA_PLUGIN_CFLAGS)
# Loaded by a program that is not a Slurm daemon: nothing has brought
# libslurmfull (a private library outside the linker's path) in before it.
plugins_harness_tofa_harness_host_la_LDFLAGS = $(TOFA_PLUGIN_LDFLAGS) -Wl,-rpath,$(SLURM_LIBDIR)
plugins_harness_tofa_harness_host_la_LIBADD = -lslurmfull -ldl -lpthread

# The proof: the real plugins under the host, with a private munged
# (tools/harness/start-munged.sh). Root only (exit 77 = skip otherwise).
check_PROGRAMS += tests/harness/plugin_host_driver
tests_harness_plugin_host_driver_SOURCES = tests/harness/plugin_host_driver.c
tests_harness_plugin_host_driver_CPPFLAGS = -I$(top_srcdir)/common -I$(top_srcdir)/plugins
tests_harness_plugin_host_driver_CFLAGS = -std=gnu11 $(TOFA_CFLAGS)
tests_harness_plugin_host_driver_LDADD = common/libtofa.la -ldl
TESTS += tests/harness/test_plugin_host.sh
# tofa-harness run on 512 nodes with examples/harness/small.swf, twice.
TESTS += tests/harness/test_harness_run.sh
endif
