# tools/profile: libtofaprof (PMPI profiler, one build per MPI library),
# tofa-heatmap, the tofa-profile wrapper and tofa-ompi-monitoring.
# Needs from configure.ac: AC_PATH_PROGS([MPICC_OPENMPI], [mpicc.openmpi])
# and AC_PATH_PROGS([MPICC_MPICH], [mpicc.mpich]) (empty = that build is
# skipped), and libpng (PKG_CHECK_MODULES([PNG], [libpng])); Makefile.am must
# define bin_SCRIPTS before this fragment is included.

bin_PROGRAMS += tools/profile/tofa-heatmap
tools_profile_tofa_heatmap_SOURCES = tools/profile/tofa_heatmap.c tools/data_lines.h \
	tools/profile/heatmap.c tools/profile/heatmap.h tools/profile/font5x7.c
tools_profile_tofa_heatmap_CFLAGS = $(AM_CFLAGS) -std=c11 -D_GNU_SOURCE $(PNG_CFLAGS)
tools_profile_tofa_heatmap_LDADD = $(PNG_LIBS) -lm

bin_SCRIPTS += tools/profile/tofa-profile tools/profile/tofa-ompi-monitoring

TOFAPROF_C_FILES = \
	$(srcdir)/tools/profile/tofaprof_comms.c \
	$(srcdir)/tools/profile/tofaprof_state.c \
	$(srcdir)/tools/profile/tofaprof_trace.c \
	$(srcdir)/tools/profile/tofaprof_collectives.c \
	$(srcdir)/tools/profile/tofaprof_neighbor.c \
	$(srcdir)/tools/profile/tofaprof_pmpi.c \
	$(srcdir)/tools/profile/tofaprof_output.c \
	$(srcdir)/tools/profile/tofaprof_fortran.c \
	$(srcdir)/tools/profile/heatmap.c \
	$(srcdir)/tools/profile/font5x7.c
TOFAPROF_H_FILES = $(srcdir)/tools/profile/tofaprof.h $(srcdir)/tools/profile/heatmap.h
TOFAPROF_FLAGS = -std=c11 -O2 -fPIC -shared -D_GNU_SOURCE -Wall -Wextra -Wpedantic $(PNG_CFLAGS)
TOFAPROF_LIBS = $(PNG_LIBS) -lm -pthread
TOFAPROF_BUILT = tools/profile/libtofaprof.so tools/profile/libtofaprof-mpich.so

# The two libraries are built by the MPI compiler wrappers, not libtool:
# each must link the right libmpi and see that library's mpi.h.
all-local: $(TOFAPROF_BUILT)
tools/profile/libtofaprof.so: $(TOFAPROF_C_FILES) $(TOFAPROF_H_FILES)
	@$(MKDIR_P) tools/profile
	if test -n "$(MPICC_OPENMPI)"; then \
	  $(MPICC_OPENMPI) $(TOFAPROF_FLAGS) -o $@ $(TOFAPROF_C_FILES) $(TOFAPROF_LIBS); \
	else : > $@; fi
tools/profile/libtofaprof-mpich.so: $(TOFAPROF_C_FILES) $(TOFAPROF_H_FILES)
	@$(MKDIR_P) tools/profile
	if test -n "$(MPICC_MPICH)"; then \
	  $(MPICC_MPICH) $(TOFAPROF_FLAGS) -o $@ $(TOFAPROF_C_FILES) $(TOFAPROF_LIBS); \
	else : > $@; fi

install-exec-local: $(TOFAPROF_BUILT)
	$(MKDIR_P) $(DESTDIR)$(pkglibdir)
	for lib in $(TOFAPROF_BUILT); do \
	  if test -s $$lib; then $(INSTALL_PROGRAM) $$lib $(DESTDIR)$(pkglibdir)/; fi; \
	done
uninstall-local:
	rm -f $(DESTDIR)$(pkglibdir)/libtofaprof.so $(DESTDIR)$(pkglibdir)/libtofaprof-mpich.so
CLEANFILES += $(TOFAPROF_BUILT)

TESTS += tests/profile/run_tests.sh
EXTRA_DIST += $(TOFAPROF_C_FILES) $(TOFAPROF_H_FILES) tools/profile/tofa-profile \
	tools/profile/tofa-ompi-monitoring tests/profile/run_tests.sh tests/profile/expect.py tests/profile/patterns.c \
	tests/profile/in.lj tests/profile/p2p.c tests/profile/halo2d.c tests/profile/bcast.c \
	tests/profile/alltoall_rows.c tests/profile/colls.c tests/profile/rma.c \
	tests/profile/fring.f90 tests/profile/neighbor.c tests/profile/fneighbor.f90 \
	bench/bench_profile.sh
