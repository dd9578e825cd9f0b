# Unit tests: one GoogleTest binary; tests/unit/<module>/<Name>GTest.cpp.
check_PROGRAMS += tests/unit_tests
TESTS += tests/unit_tests tests/cli/test_tofa_map.sh tests/docs/test_man_pages.sh tests/meta/test_counting.sh \
	tests/meta/test_include_layers.sh tests/meta/test_long_functions.sh
# Every figure of README.md and docs/ stamped and no older than its sources
# (scripts/results-manifest.json), and the check itself on a throwaway repository.
TESTS += tests/docs/test_results_fresh.sh tests/docs/test_results_check.sh
EXTRA_DIST += tests/docs/test_results_fresh.sh tests/docs/test_results_check.sh scripts/lib/readme_block.py
tests_unit_tests_SOURCES = \
	tests/unit/fixtures.hpp \
	tests/unit/graph/GraphParseGTest.cpp tests/unit/graph/GeneratorsGTest.cpp \
	tests/unit/graph/PatternsGTest.cpp \
	tests/unit/base/EvenlySpreadGTest.cpp \
	tests/unit/topology/TopologyGTest.cpp \
	tests/unit/topology/TopologyFileGTest.cpp \
	tests/unit/faults/FaultsGTest.cpp \
	tests/unit/metrics/MetricsGTest.cpp tests/unit/metrics/InterferenceGTest.cpp \
	tests/unit/map/MapperGTest.cpp tests/unit/portfolio/AutoGTest.cpp tests/unit/portfolio/CandidateWindowGTest.cpp tests/unit/portfolio/CongestionDescentGTest.cpp tests/unit/portfolio/RouteRepairGTest.cpp tests/unit/portfolio/TranslateClearGTest.cpp tests/unit/map/CompactChoiceGTest.cpp tests/unit/map/TaskLimitsGTest.cpp \
	tests/unit/embed/EmbedGTest.cpp \
	tests/unit/capi/CApiGTest.cpp \
	tests/unit/net/NetGTest.cpp tests/unit/net/ServerLimitsGTest.cpp tests/unit/net/raw_peers.hpp \
	tests/unit/net/LogLimiterGTest.cpp \
	tests/unit/anneal/AnnealGTest.cpp \
	tests/unit/anneal/AnnealPartsGTest.cpp \
	tests/unit/anneal/EnergyGTest.cpp \
	tests/unit/mims/MimsBinPackingGTest.cpp \
	tests/unit/mims/MimsMapperGTest.cpp \
	tests/unit/mims/MimsPackingGTest.cpp \
	tests/unit/rubik/RubikMapGTest.cpp \
	tests/unit/rubik/RubikPermuteGTest.cpp \
	tests/unit/rubik/RubikSpecGTest.cpp \
	tests/unit/rubik/RubikTreeGTest.cpp \
	tests/unit/rubik/RubikWritersGTest.cpp \
	tests/unit/rubik/rubik_test_util.hpp \
	tests/unit/stencil/AllocatorsGTest.cpp \
	tests/unit/stencil/StencilHelpersGTest.cpp \
	tests/unit/stencil/StencilMappersGTest.cpp \
	tests/unit/torus3d/Torus3dGTest.cpp \
	tests/unit/munged_fixture.hpp \
	tests/unit/service/TofaConfGTest.cpp tests/unit/service/ServiceStateGTest.cpp tests/unit/service/RunningLinksGTest.cpp \
	tests/unit/service/ServiceNetworkGTest.cpp tests/unit/service/TofactlGTest.cpp \
	tests/unit/service/HeartbeatDatagramGTest.cpp \
	tests/unit/service/DeferredWriterGTest.cpp tests/unit/service/NodeHealthGTest.cpp \
	tests/unit/service/MapWorkerGTest.cpp tests/unit/service/UserSlotsGTest.cpp tests/unit/service/MappingQueueGTest.cpp \
	tests/unit/service/StateFormatGTest.cpp tests/unit/service/StateRecoveryGTest.cpp \
	tests/unit/sim/FailureDrawGTest.cpp tests/unit/sim/AbortRuleGTest.cpp \
	tests/unit/sim/BatchModelGTest.cpp tests/unit/sim/MdGridGTest.cpp \
	tools/tofactl_format.cpp tools/tofactl_slurm_conf.cpp tools/links_svg.cpp tools/sim/failure_draw.cpp \
	tools/sim/batch_model.cpp
tests_unit_tests_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit -I$(top_srcdir)/tests/unit/net \
	-I$(top_srcdir)/tools
tests_unit_tests_LDADD = common/libtofa.la $(MUNGE_LIBS) $(GTEST_LIBS)
TESTS_ENVIRONMENT = top_srcdir=$(top_srcdir) top_builddir=$(top_builddir); export top_srcdir top_builddir;
# scripts/sim-results.py (tests/sim/test_results.sh) defaults to the tools of
# an in-tree build; name the built ones (VPATH builds, make distcheck).
TESTS_ENVIRONMENT += TOFA_MAP=$(abs_top_builddir)/tools/tofa-map \
	TOFA_SIM=$(abs_top_builddir)/tools/sim/tofa-sim; export TOFA_MAP TOFA_SIM;
EXTRA_DIST += tests/cli/test_tofa_map.sh tests/docs/test_man_pages.sh tests/meta/test_counting.sh \
	tests/meta/test_include_layers.sh scripts/include-graph.py \
	tests/meta/test_long_functions.sh scripts/long-functions.py scripts/lib/c_sources.py \
	tests/lib/checks.sh tests/lib/png_decode.py scripts/lib/tally.py
# The graphs and topologies the command-line and profiler tests (and make bench) read.
EXTRA_DIST += examples/dt85.mat examples/faults16.txt examples/stencil64.mat examples/torus8x8x8.conf
# SimGrid's routes against R(u,v), the applications' traffic against their
# graphs, a batch against its hand-computed result: only when tofa-sim is built.
if BUILD_SIM
TESTS += tests/sim/test_routes.sh tests/sim/test_apps.sh tests/sim/test_batch.sh \
	tests/sim/test_results.sh tests/sim/test_trace.sh
endif
EXTRA_DIST += tests/sim/test_routes.sh tests/sim/test_apps.sh tests/sim/test_batch.sh tests/sim/test_results.sh tests/sim/lib.sh \
	tests/sim/test_trace.sh tests/sim/trace_patterns.c
