# tools/sim: tofa-sim (SimGrid s4u) and its SMPI applications, built only when
# configure found SimGrid 3.32 (BUILD_SIM). The failure model and the batch
# accounting (failure_draw.cpp, batch_model.cpp) need no SimGrid: the unit
# tests build them in any case.
if BUILD_SIM
bin_PROGRAMS += tools/sim/tofa-sim
tools_sim_tofa_sim_SOURCES = tools/sim/tofa_sim.cpp \
	tools/sim/platform.hpp tools/sim/platform.cpp \
	tools/sim/hostfile.hpp tools/sim/hostfile.cpp \
	tools/sim/routes.hpp tools/sim/routes.cpp \
	tools/sim/crosstraffic.hpp tools/sim/crosstraffic.cpp \
	tools/sim/smpi_run.hpp tools/sim/smpi_run.cpp \
	tools/sim/failure_draw.hpp tools/sim/failure_draw.cpp \
	tools/sim/progress.hpp tools/sim/work_dir.hpp \
	tools/sim/app_spec.hpp tools/sim/app_spec.cpp tools/sim/app_args.hpp \
	tools/sim/trace_resolve.hpp tools/sim/trace_resolve.cpp \
	tools/sim/apps/md_grid.h \
	tools/sim/simulate.hpp tools/sim/simulate.cpp \
	tools/sim/parallel.hpp tools/sim/parallel.cpp \
	tools/sim/batch_model.hpp tools/sim/batch_model.cpp \
	tools/sim/batch_settings.hpp tools/sim/batch.hpp tools/sim/batch.cpp \
	tools/sim/batch_report.hpp tools/sim/batch_report.cpp
tools_sim_tofa_sim_CPPFLAGS = $(AM_CPPFLAGS) $(SIMGRID_CFLAGS) \
	-DTOFA_SIM_APPDIR='"$(pkglibexecdir)"' \
	-DTOFA_SIM_BUILD_ROOT='"$(abs_top_builddir)"' \
	-DTOFA_MAP='"$(bindir)/tofa-map"' \
	-DTOFA_SMPIRUN='"$(SMPIRUN)"'
tools_sim_tofa_sim_LDADD = common/libtofa.la $(SIMGRID_LIBS)

# The applications are SMPI programs: smpicc compiles and links them, not libtool;
# as scripts "make all" builds them and "make install" copies them.
TOFA_SIM_APPS = tools/sim/apps/tofa-sim-replay tools/sim/apps/tofa-sim-dt \
	tools/sim/apps/tofa-sim-md tools/sim/apps/tofa-sim-trace
pkglibexec_SCRIPTS = $(TOFA_SIM_APPS)
TOFA_SMPICC = $(SMPICC) -std=c11 -D_GNU_SOURCE -O2 $(TOFA_CFLAGS)
tools/sim/apps/tofa-sim-replay: $(srcdir)/tools/sim/apps/replay.c $(srcdir)/tools/data_lines.h
	@$(MKDIR_P) tools/sim/apps
	$(AM_V_CC)$(TOFA_SMPICC) -o $@ $(srcdir)/tools/sim/apps/replay.c -lm
tools/sim/apps/tofa-sim-dt: $(srcdir)/tools/sim/apps/dt.c $(srcdir)/tools/sim/apps/sent_matrix.h
	@$(MKDIR_P) tools/sim/apps
	$(AM_V_CC)$(TOFA_SMPICC) -o $@ $(srcdir)/tools/sim/apps/dt.c -lm
tools/sim/apps/tofa-sim-md: $(srcdir)/tools/sim/apps/md.c $(srcdir)/tools/sim/apps/md_grid.h \
		$(srcdir)/tools/sim/apps/sent_matrix.h
	@$(MKDIR_P) tools/sim/apps
	$(AM_V_CC)$(TOFA_SMPICC) -o $@ $(srcdir)/tools/sim/apps/md.c -lm
tools/sim/apps/tofa-sim-trace: $(srcdir)/tools/sim/apps/trace.c $(srcdir)/tools/sim/apps/sent_matrix.h
	@$(MKDIR_P) tools/sim/apps
	$(AM_V_CC)$(TOFA_SMPICC) -o $@ $(srcdir)/tools/sim/apps/trace.c
CLEANFILES += $(TOFA_SIM_APPS)
endif
EXTRA_DIST += tools/sim/apps/replay.c tools/data_lines.h tools/sim/apps/dt.c tools/sim/apps/md.c tools/sim/apps/trace.c \
	tools/sim/apps/md_grid.h tools/sim/apps/sent_matrix.h tools/sim/README.md man/tofa-sim.1 \
	scripts/sim-results.py scripts/lib/svg_bars.py

# tools/sim/record: what recording the seed's applications needs (scripts/sim-results.py).
noinst_DATA = tools/sim/record/libtofa-shared-arrays.so
tools/sim/record/libtofa-shared-arrays.so: $(srcdir)/tools/sim/record/shared_arrays.c
	@$(MKDIR_P) tools/sim/record
	$(AM_V_CC)$(CC) -std=gnu11 -O2 -fPIC -shared -Wall -Wextra -o $@ $(srcdir)/tools/sim/record/shared_arrays.c
CLEANFILES += tools/sim/record/libtofa-shared-arrays.so
EXTRA_DIST += tools/sim/record/shared_arrays.c tools/sim/record/npb-dt.sh tools/sim/record/in.peptide-32k
