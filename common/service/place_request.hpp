// What a PLACE asks for: built by the request handler from the protocol's
// fields, by the in-process C API, and sent by clients.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace tofa::service {

/// A placement request (network PLACE or in-process).
struct PlaceRequest {
  uid_t uid = 0;
  std::string graph_id;
  std::optional<unsigned> job;  ///< recorded when set
  int tasks = 0;                ///< 0 = the graph's; else must match
  std::string strategy;         ///< "" = DefaultStrategy
  std::string candidates;       ///< "" = all topology nodes
  int slots_per_node = 0;
  std::string parameters;       ///< "KEY=VALUE;..." (see parse_parameters)
  int min_nodes = 0;            ///< distinct nodes spanned (PlacementInput)
  int max_nodes = 0;
  /// A direct srun (job unset): its tasks are promised until its job is
  /// recorded (record_placement) or the promise lapses, and it avoids the
  /// tasks promised to others (see SrunClaims).
  bool claim = false;
  /// Return only once the recorded placement is on disk (a network PLACE is
  /// answered after that). The in-process caller (select/tofa, under
  /// slurmctld's locks) does not wait: the record is written within one
  /// write of the deferred writer, see DeferredWriter.
  bool wait_until_saved = false;
  /// From slurmctld itself (select/tofa): its record replaces one another
  /// user made for the same job id over the network before the job existed.
  bool from_slurmctld = false;
};

}  // namespace tofa::service
