# tools/harness/stream: the job-stream half of tofa-harness (SWF traces,
# generated streams, EASY backfilling, allocators, per-job metrics) as a
# convenience library; the tool links it with common/libtofa.la.
noinst_LTLIBRARIES += tools/harness/libharness_stream.la
tools_harness_libharness_stream_la_SOURCES = \
	tools/harness/stream/swf.hpp tools/harness/stream/swf.cpp \
	tools/harness/stream/random_draws.hpp tools/harness/stream/random_draws.cpp \
	tools/harness/stream/job_generator.hpp tools/harness/stream/job_generator.cpp \
	tools/harness/stream/easy_backfill.hpp tools/harness/stream/easy_backfill.cpp \
	tools/harness/stream/stream_allocators.hpp tools/harness/stream/stream_allocators.cpp \
	tools/harness/stream/stream_metrics.hpp tools/harness/stream/stream_metrics.cpp \
	tools/harness/stream/bunde_mappers.hpp tools/harness/stream/bunde_mappers.cpp
tools_harness_libharness_stream_la_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tools

tests_unit_tests_SOURCES += tests/unit/harness/SwfGTest.cpp \
	tests/unit/harness/StreamGeneratorGTest.cpp \
	tests/unit/harness/EasyBackfillGTest.cpp \
	tests/unit/harness/StreamAllocatorsGTest.cpp \
	tests/unit/harness/StreamMetricsGTest.cpp \
	tests/unit/harness/BundeMappersGTest.cpp
tests_unit_tests_LDADD += tools/harness/libharness_stream.la

EXTRA_DIST += tools/harness/stream/README.md examples/harness/small.swf
