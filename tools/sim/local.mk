# tools/sim: tofa-sim (SimGrid s4u) and its SMPI applications, built only when
# configure found SimGrid 3.32 (BUILD_SIM). The failure model
# (failure_draw.cpp) needs no SimGrid: the unit tests build it in any case.
if BUILD_SIM
bin_PROGRAMS += tools/sim/tofa-sim
tools_sim_tofa_sim_SOURCES = tools/sim/tofa_sim.cpp \
	tools/sim/platform.hpp tools/sim/platform.cpp \
	tools/sim/hostfile.hpp tools/sim/hostfile.cpp \
	tools/sim/routes.hpp tools/sim/routes.cpp \
	tools/sim/crosstraffic.hpp tools/sim/crosstraffic.cpp \
	tools/sim/smpi_run.hpp tools/sim/smpi_run.cpp \
	tools/sim/failure_draw.hpp tools/sim/failure_draw.cpp \
	tools/sim/progress.hpp
tools_sim_tofa_sim_CPPFLAGS = $(AM_CPPFLAGS) $(SIMGRID_CFLAGS) \
	-DTOFA_SIM_REPLAY='"$(pkglibexecdir)/tofa-sim-replay"' \
	-DTOFA_SIM_REPLAY_BUILD='"$(abs_top_builddir)/tools/sim/apps/tofa-sim-replay"' \
	-DTOFA_SMPIRUN='"$(SMPIRUN)"'
tools_sim_tofa_sim_LDADD = common/libtofa.la $(SIMGRID_LIBS)

# The replayer is an SMPI program: smpicc compiles and links it, not libtool;
# as a script "make all" builds it and "make install" copies it.
TOFA_SIM_APPS = tools/sim/apps/tofa-sim-replay
pkglibexec_SCRIPTS = $(TOFA_SIM_APPS)
tools/sim/apps/tofa-sim-replay: $(srcdir)/tools/sim/apps/replay.c
	@$(MKDIR_P) tools/sim/apps
	$(AM_V_CC)$(SMPICC) -std=c11 -D_GNU_SOURCE -O2 $(TOFA_CFLAGS) -o $@ $(srcdir)/tools/sim/apps/replay.c -lm
CLEANFILES += $(TOFA_SIM_APPS)
endif
EXTRA_DIST += tools/sim/apps/replay.c tools/sim/README.md
