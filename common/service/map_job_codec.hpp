// The bytes a mapping worker reads (one mapping job) and writes (its
// placement or its error): a versioned binary format, validated field by
// field on decoding, since either side may be damaged or hostile.
#pragma once

#include <memory>
#include <string>

#include "base/error.hpp"
#include "map/mapper.hpp"

namespace tofa::service {

/// The worker itself failed (crash, limit, spawn, garbled answer), as opposed
/// to the strategy reporting that the request cannot be placed.
class MapWorkerFailure : public Error {
 public:
  using Error::Error;
};

/// A decoded job: the request points into the topology and graph it holds.
/// Jobs of one machine share its topology: a worker decodes one per job, and
/// building a 65,536-node topology took 1 ms of each.
struct MapJob {
  std::shared_ptr<const Topology> topology;
  CommGraph graph;
  std::string strategy;
  MappingRequest request;

  MapJob(std::shared_ptr<const Topology> t, CommGraph g)
      : topology(std::move(t)), graph(std::move(g)) {}
  MapJob(const MapJob&) = delete;
  MapJob& operator=(const MapJob&) = delete;
};

/// What a worker keeps between jobs: the last interference cost table it
/// was sent (the running set's; at 65,536 nodes megabytes that every job
/// placed until the running set changes would carry again).
struct KeptLinkCosts {
  std::shared_ptr<const std::vector<double>> table;
};

/// The job as bytes (only the topology's shape travels: node ids, not names).
/// The job's link costs are request.fault_cost.link_extra with `patch` over
/// them; with `worker_kept_link_costs` the worker's KeptLinkCosts stand for
/// link_extra, which does not travel.
std::string encode_map_job(const MappingRequest& request, const std::string& strategy,
                           const LinkCostPatch& patch = {}, bool worker_kept_link_costs = false);
/// Throws Error "mapping job: ..." on anything malformed or over a limit, or
/// asking for kept link costs that `kept` does not hold; a table that travels
/// is kept there.
std::unique_ptr<MapJob> decode_map_job(const std::string& bytes, KeptLinkCosts* kept = nullptr);

/// "OK" + the placement, or "ER" + a message.
std::string encode_map_result(const Placement& placement);
std::string encode_map_error(const std::string& message);
/// "OM": the worker ran out of memory and exits.
std::string encode_map_out_of_memory();
bool is_out_of_memory(const std::string& answer);
/// The placement of `tasks` tasks; throws Error with the worker's message
/// when it reported one, or "mapping worker: ..." when the bytes are wrong.
Placement decode_map_result(const std::string& bytes, int tasks);

}  // namespace tofa::service
