# make bench: mapping time and quality per strategy, as JSON (not part of make check).
noinst_PROGRAMS += bench/bench_mappers bench/bench_stencil bench/bench_mims bench/bench_anneal bench/bench_service
bench_bench_mappers_SOURCES = bench/bench_mappers.cpp
bench_bench_mappers_LDADD = common/libtofa.la
bench_bench_stencil_SOURCES = bench/bench_stencil.cpp
bench_bench_stencil_LDADD = common/libtofa.la
bench_bench_mims_SOURCES = bench/bench_mims.cpp
bench_bench_mims_LDADD = common/libtofa.la
bench_bench_anneal_SOURCES = bench/bench_anneal.cpp
bench_bench_anneal_LDADD = common/libtofa.la
bench_bench_service_SOURCES = bench/bench_service.cpp
bench_bench_service_LDADD = common/libtofa.la
# The quality targets of issue 12 against Scotch's gmap, Slurm's layout and
# F_min (bench/quality.sh, about a minute on 2 cores; not part of make bench).
noinst_PROGRAMS += bench/bench_quality
bench_bench_quality_SOURCES = bench/bench_quality.cpp
bench_bench_quality_LDADD = common/libtofa.la
EXTRA_DIST += bench/quality.sh
# The service under load and attack (bench/service_load.sh); not part of make bench.
noinst_PROGRAMS += bench/service_load
bench_service_load_SOURCES = bench/service_load.cpp
bench_service_load_LDADD = common/libtofa.la $(MUNGE_LIBS)
EXTRA_DIST += bench/service_load.sh

bench: bench/bench_mappers bench/bench_stencil bench/bench_mims bench/bench_anneal bench/bench_service
	$(top_builddir)/bench/bench_mappers --examples $(top_srcdir)/examples
	$(top_builddir)/bench/bench_service --examples $(top_srcdir)/examples
	$(top_builddir)/bench/bench_stencil --quick
	$(top_builddir)/bench/bench_mims --examples $(top_srcdir)/examples --quick
	$(top_builddir)/bench/bench_anneal --budget 50
.PHONY: bench
EXTRA_DIST += examples/rubik/README.md $(wildcard $(srcdir)/examples/rubik/*.rubik)
# Placement at 65,536 nodes against the budget (issue 38; bench/at_scale.sh).
noinst_PROGRAMS += bench/bench_at_scale
bench_bench_at_scale_SOURCES = bench/bench_at_scale.cpp
bench_bench_at_scale_LDADD = common/libtofa.la
EXTRA_DIST += bench/bench_machine.hpp bench/bench_options.hpp
# tofa's time inside slurmctld's scheduling pass per job (issue 38, item 1).
noinst_PROGRAMS += bench/bench_scheduler_path
bench_bench_scheduler_path_SOURCES = bench/bench_scheduler_path.cpp
bench_bench_scheduler_path_LDADD = common/libtofa.la
EXTRA_DIST += bench/at_scale.py
