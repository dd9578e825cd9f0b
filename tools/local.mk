bin_PROGRAMS += tools/tofa-map
tools_tofa_map_SOURCES = tools/tofa_map.cpp tools/placement_svg.hpp tools/placement_svg.cpp \
	tools/svg_planes.hpp
tools_tofa_map_LDADD = common/libtofa.la

bin_PROGRAMS += tools/tofactl
tools_tofactl_SOURCES = tools/tofactl.cpp tools/tofactl_format.hpp tools/tofactl_format.cpp \
	tools/tofactl_slurm_conf.hpp tools/tofactl_slurm_conf.cpp tools/links_svg.hpp tools/links_svg.cpp \
	tools/svg_planes.hpp
tools_tofactl_LDADD = common/libtofa.la

bin_PROGRAMS += tools/tofa-rubik
tools_tofa_rubik_SOURCES = tools/tofa_rubik.cpp
tools_tofa_rubik_LDADD = common/libtofa.la

pkglibexec_PROGRAMS = tools/tofa-map-worker
tools_tofa_map_worker_SOURCES = tools/tofa_map_worker.cpp
tools_tofa_map_worker_LDADD = common/libtofa.la
