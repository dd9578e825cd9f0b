# libtofa: the Slurm-independent library (C++ inside, narrow C API outside).
lib_LTLIBRARIES += common/libtofa.la
include_HEADERS = common/capi/tofa.h common/capi/tofa_service.h
common_libtofa_la_SOURCES = \
	common/base/error.hpp common/base/size_limit.hpp common/base/printable.hpp common/base/zeroed_scratch.hpp common/base/evenly_spread.hpp \
	common/graph/graph.hpp common/graph/graph.cpp common/graph/parse.cpp \
	common/graph/generators.hpp common/graph/generators.cpp \
	common/graph/patterns/patterns.hpp common/graph/patterns/patterns.cpp \
	common/graph/patterns/pattern_spec.hpp common/graph/patterns/pattern_spec.cpp \
	common/graph/patterns/builders.hpp common/graph/patterns/collectives.hpp \
	common/graph/patterns/collectives.cpp common/graph/patterns/collective_patterns.cpp \
	common/graph/patterns/halo.cpp common/graph/patterns/training.cpp \
	common/topology/topology.hpp common/topology/topology.cpp common/topology/hostlist.cpp \
	common/topology/file.cpp common/topology/route_registry.cpp \
	common/faults/faults.hpp common/faults/heartbeats.cpp common/faults/fault_cost.cpp \
	common/faults/route_faults.hpp common/faults/route_faults.cpp \
	common/faults/route_link_costs.hpp common/faults/route_link_costs.cpp \
	common/faults/outage_table.hpp \
	common/metrics/metrics.hpp common/metrics/metrics.cpp \
	common/metrics/interference.hpp common/metrics/interference.cpp \
	common/metrics/tcp_flows.hpp \
	common/map/mapper.hpp \
	common/map/registry.cpp common/map/baseline/strategies.hpp common/map/scotch/strategies.hpp \
	common/map/baseline/default_slurm.cpp common/map/baseline/random.cpp \
	common/map/baseline/greedy.cpp common/map/baseline/greedy_routes.cpp common/map/baseline/heaviest_pairs.hpp common/map/scotch/tofa_scotch.cpp common/map/scotch/tofa_compact.cpp common/map/scotch/tofa_packed.cpp \
	common/map/scotch/scotch_map.hpp common/map/scotch/scotch_map.cpp \
	common/map/scotch/scotch_objects.hpp common/map/scotch/scotch_objects.cpp \
	common/map/scotch/scotch_target.hpp common/map/scotch/scotch_target.cpp \
	common/map/scotch/deco_arch.hpp common/map/scotch/deco_arch.cpp \
	common/map/scotch/gmap_anchor.hpp common/map/scotch/gmap_anchor.cpp \
	common/map/portfolio/strategies.hpp common/map/portfolio/auto.cpp \
	common/map/portfolio/candidate_window.hpp common/map/portfolio/candidate_window.cpp \
	common/map/portfolio/congestion_descent.hpp common/map/portfolio/congestion_descent.cpp \
	common/map/portfolio/route_repair.hpp common/map/portfolio/route_repair.cpp \
	common/map/portfolio/translate_clear.hpp common/map/portfolio/translate_clear.cpp \
	common/map/embed/strategies.hpp common/map/embed/strategy.cpp \
	common/map/embed/pivot_mds.hpp common/map/embed/pivot_mds.cpp \
	common/map/embed/coordinate_bisection.hpp common/map/embed/coordinate_bisection.cpp \
	common/map/embed/axis_alignment.hpp common/map/embed/axis_alignment.cpp \
	common/map/slot_pool.hpp common/map/slot_pool.cpp \
	common/map/free_node_boxes.hpp common/map/free_node_boxes.cpp \
	common/map/capacity_repair.hpp common/map/capacity_repair.cpp \
	common/map/task_limits.hpp common/map/task_limits.cpp \
	common/alloc/allocators.hpp common/map/mims/mims.hpp common/map/rubik/rubik.hpp \
	common/map/stencil/strategies.hpp common/map/mims/strategies.hpp common/map/rubik/strategies.hpp common/map/stencil/stencil_allcorners.cpp \
	common/map/stencil/stencil_baseline.cpp common/map/stencil/stencil_colmajor.cpp common/map/stencil/stencil_corner.cpp \
	common/map/stencil/stencil_grouping.cpp common/map/stencil/stencil_incimprove.cpp common/map/stencil/stencil_ordered.cpp \
	common/map/stencil/stencil_overlay.cpp common/map/stencil/stencil_rcb.cpp common/map/stencil/stencil_rowmajor.cpp \
	common/map/stencil/stencil_twowayoverlay.cpp common/map/stencil/allocation.cpp common/map/stencil/allocation.hpp \
	common/map/stencil/corner_order.cpp common/map/stencil/corner_order.hpp common/map/stencil/free_rank_grid.cpp \
	common/map/stencil/free_rank_grid.hpp common/map/stencil/group_block.cpp common/map/stencil/group_block.hpp \
	common/map/stencil/job_grid.cpp common/map/stencil/job_grid.hpp common/map/stencil/job_shape.cpp \
	common/map/stencil/job_shape.hpp common/map/stencil/linear_order.cpp common/map/stencil/linear_order.hpp \
	common/map/stencil/problem.cpp common/map/stencil/problem.hpp common/map/stencil/rcb.cpp \
	common/map/stencil/rcb.hpp common/alloc/fragmented_machine.cpp common/alloc/free_nodes.cpp \
	common/alloc/free_nodes.hpp common/map/compact/compact_choice.hpp common/map/compact/compact_choice.cpp common/map/compact/strategies.hpp common/map/compact/strategy.cpp \
	common/alloc/mc1x1.cpp common/alloc/snake_best_fit.cpp \
	common/map/mims/bin_packing.cpp common/map/mims/bin_packing.hpp common/map/mims/packing.cpp \
	common/map/rubik/grid.hpp common/map/rubik/partition.cpp common/map/rubik/permute.cpp \
	common/map/rubik/spec_parser.cpp common/map/rubik/tree.cpp common/map/rubik/writers.cpp \
	common/map/mims/strategy.cpp common/map/rubik/strategy.cpp \
	common/map/torus3d/strategies.hpp common/map/torus3d/strategy.cpp \
	common/map/torus3d/shapes.hpp common/map/torus3d/shapes.cpp \
	common/map/torus3d/box_choice.hpp common/map/torus3d/box_choice.cpp \
	common/map/torus3d/zorder.hpp common/map/torus3d/zorder.cpp \
	common/map/anneal/distance_metric.hpp common/map/anneal/distance_metric.cpp \
	common/map/anneal/energy.hpp common/map/anneal/strategies.hpp common/map/anneal/strategy.cpp \
	common/map/anneal/bisection.cpp common/map/anneal/bisection.hpp common/map/anneal/cubic_problems.cpp \
	common/map/anneal/cubic_problems.hpp common/map/anneal/distance_table.cpp common/map/anneal/distance_table.hpp \
	common/map/anneal/energy.cpp common/map/anneal/descent.cpp common/map/anneal/descent.hpp common/map/anneal/grow_start.cpp common/map/anneal/initial_map.cpp common/map/anneal/initial_map.hpp \
	common/map/anneal/load_bounds.cpp common/map/anneal/load_bounds.hpp common/map/anneal/lower_bound.cpp \
	common/map/anneal/metropolis.cpp common/map/anneal/metropolis.hpp common/map/anneal/options.cpp \
	common/map/anneal/options.hpp common/map/anneal/placement_state.cpp common/map/anneal/placement_state.hpp \
	common/map/anneal/progress.cpp common/map/anneal/progress.hpp common/map/anneal/random_stream.hpp \
	common/map/anneal/run.cpp common/map/anneal/run.hpp common/map/anneal/schedule.cpp \
	common/map/anneal/schedule.hpp common/map/anneal/site_neighbourhood.cpp common/map/anneal/site_neighbourhood.hpp \
	common/net/sha256.hpp common/net/sha256.cpp \
	common/net/hmac.hpp common/net/hmac.cpp \
	common/net/datagram_socket.hpp common/net/datagram_socket.cpp \
	common/net/munge_codec.hpp common/net/munge_codec.cpp \
	common/net/socket_io.hpp common/net/socket_io.cpp \
	common/net/frame.hpp common/net/frame.cpp \
	common/net/request_reader.hpp common/net/request_reader.cpp \
	common/net/reply_writer.hpp common/net/reply_writer.cpp \
	common/net/admission.hpp common/net/admission.cpp \
	common/net/log_limiter.hpp common/net/log_limiter.cpp \
	common/net/worker_pool.hpp common/net/worker_pool.cpp \
	common/net/server.hpp common/net/server.cpp common/net/server_loop.cpp \
	common/net/server_connection.hpp \
	common/net/client.hpp common/net/client.cpp \
	common/service/tofa_conf.hpp common/service/tofa_conf.cpp \
	common/service/deferred_writer.hpp common/service/background_priority.hpp common/service/background_priority.cpp common/service/deferred_writer.cpp \
	common/service/protocol.hpp common/service/protocol.cpp \
	common/service/state_files.hpp common/service/state_files.cpp \
	common/service/state_text.hpp common/service/state_text.cpp \
	common/service/graph_file.hpp common/service/graph_file.cpp \
	common/service/graph_store.hpp common/service/graph_store.cpp \
	common/service/node_health.hpp common/service/node_health.cpp \
	common/service/placement_store.hpp common/service/placement_store.cpp \
	common/service/placement.hpp common/service/placement.cpp \
	common/service/place_request.hpp \
	common/service/srun_claims.hpp common/service/srun_claims.cpp \
	common/service/user_slots.hpp common/service/user_slots.cpp \
	common/service/mapping_queue.hpp common/service/mapping_queue.cpp common/service/deferred_mapping.cpp \
	common/service/work_limits.hpp common/service/work_limits.cpp \
	common/service/map_job_codec.hpp common/service/map_job_codec.cpp \
	common/service/map_worker.hpp common/service/map_worker.cpp \
	common/service/service_state.hpp common/service/service_state.cpp \
	common/service/running_links.hpp common/service/running_links.cpp \
	common/service/request_handler.hpp common/service/request_handler.cpp \
	common/service/heartbeat_loop.hpp common/service/heartbeat_loop.cpp \
	common/service/responder.hpp common/service/responder.cpp \
	common/service/responder_sessions.hpp common/service/responder_sessions.cpp \
	common/service/heartbeat_datagram.hpp common/service/heartbeat_datagram.cpp \
	common/service/session_prober.hpp common/service/session_prober.cpp \
	common/service/service.hpp common/service/service.cpp \
	common/service/client.hpp common/service/client.cpp \
	common/capi/capi_guard.hpp common/capi/capi.cpp common/capi/service_capi.cpp
common_libtofa_la_LIBADD = $(SCOTCH_LIBS) $(MUNGE_LIBS) $(NETTLE_LIBS) -lpthread
common_libtofa_la_CXXFLAGS = $(AM_CXXFLAGS) -pthread $(NETTLE_CFLAGS)
common_libtofa_la_LDFLAGS = -version-info 0:0:0
