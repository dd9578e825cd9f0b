# libtofa: the Slurm-independent library (C++ inside, narrow C API outside).
lib_LTLIBRARIES += common/libtofa.la
include_HEADERS = common/tofa.h common/tofa_service.h
common_libtofa_la_SOURCES = \
	common/tofa/error.hpp common/tofa/graph.hpp common/tofa/topology.hpp \
	common/tofa/faults.hpp common/tofa/metrics.hpp common/tofa/mapper.hpp \
	common/tofa/tofa.hpp common/tofa/generators.hpp \
	common/graph.cpp common/graph_parse.cpp common/generators.cpp \
	common/topology.cpp common/hostlist.cpp common/topology_file.cpp \
	common/route_registry.cpp \
	common/heartbeats.cpp common/fault_cost.cpp \
	common/metrics.cpp \
	common/mapper.cpp common/map/strategies.hpp \
	common/map/default_slurm.cpp common/map/random.cpp \
	common/map/greedy.cpp common/map/tofa_scotch.cpp common/map/tofa_compact.cpp \
	common/map/scotch_map.hpp common/map/scotch_map.cpp \
	common/map/scotch_target.hpp common/map/scotch_target.cpp \
	common/map/slot_pool.hpp common/map/slot_pool.cpp \
	common/map/capacity_repair.hpp common/map/capacity_repair.cpp \
	common/net/sha256.hpp common/net/sha256.cpp \
	common/net/munge_codec.hpp common/net/munge_codec.cpp \
	common/net/socket_io.hpp common/net/socket_io.cpp \
	common/net/frame.hpp common/net/frame.cpp \
	common/net/server.hpp common/net/server.cpp \
	common/net/client.hpp common/net/client.cpp \
	common/service/tofa_conf.hpp common/service/tofa_conf.cpp \
	common/service/protocol.hpp common/service/protocol.cpp \
	common/service/state_files.hpp common/service/state_files.cpp \
	common/service/state_text.hpp common/service/state_text.cpp \
	common/service/graph_store.hpp common/service/graph_store.cpp \
	common/service/node_health.hpp common/service/node_health.cpp \
	common/service/placement_store.hpp common/service/placement_store.cpp \
	common/service/placement.hpp common/service/placement.cpp \
	common/service/service_state.hpp common/service/service_state.cpp \
	common/service/request_handler.hpp common/service/request_handler.cpp \
	common/service/heartbeat_loop.hpp common/service/heartbeat_loop.cpp \
	common/service/responder.hpp common/service/responder.cpp \
	common/service/service.hpp common/service/service.cpp \
	common/service/client.hpp common/service/client.cpp \
	common/capi.cpp common/service_capi.cpp
common_libtofa_la_LIBADD = $(SCOTCH_LIBS) $(MUNGE_LIBS) -lpthread
common_libtofa_la_CXXFLAGS = $(AM_CXXFLAGS) -pthread
common_libtofa_la_LDFLAGS = -version-info 0:0:0
