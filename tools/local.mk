bin_PROGRAMS += tools/tofa-map
tools_tofa_map_SOURCES = tools/tofa_map.cpp tools/placement_svg.hpp tools/placement_svg.cpp
tools_tofa_map_LDADD = common/libtofa.la
