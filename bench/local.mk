# make bench: mapping time and quality per strategy, as JSON (not part of make check).
noinst_PROGRAMS += bench/bench_mappers
bench_bench_mappers_SOURCES = bench/bench_mappers.cpp
bench_bench_mappers_LDADD = common/libtofa.la

bench: bench/bench_mappers
	$(top_builddir)/bench/bench_mappers --examples $(top_srcdir)/examples
.PHONY: bench
