// Talking to the service: endpoint resolution from tofa.conf and the
// requests the plugins and tofactl make.
#pragma once

#include <string>
#include <vector>

#include "service/place_request.hpp"
#include "service/protocol.hpp"
#include "service/tofa_conf.hpp"

namespace tofa::service {

struct ClientContext {
  std::string host;
  int port = 0;
  std::string munge_socket;  ///< "" = default
  ServiceSettings settings;  ///< the conf's (defaults without a conf)
  /// Try again for settings.service_wait seconds while the service refuses
  /// connections (restarting) or answers "busy" (srun, sbatch and salloc do;
  /// raw requests and tofactl get the answer at once).
  bool wait_for_service = false;
};

/// host "" = ServiceHost of the conf; "HOST:PORT" overrides the port.
/// conf_path "" is allowed only when host carries a port. Throws Error.
ClientContext client_context(const std::string& conf_path, const std::string& host,
                             const std::string& munge_socket);

/// Sends one request; returns the whole "OK ..." reply text. Throws Error
/// with the service's reason on "ERROR REASON", or the transport's.
std::string call_raw(const ClientContext& context, const std::string& request);
/// call_raw, parsed.
Message call(const ClientContext& context, const std::string& request);

struct UploadedGraph {
  std::string id;
  int task_count = 0;
};

/// Checks the file's size against MaxGraphBytes, reads and uploads it under
/// its path as the name (so parse errors read "PATH:LINE:COL: ...").
UploadedGraph upload_graph_file(const ClientContext& context, const std::string& path);
/// Uploads graph text under `name` (the service parses and checks it).
UploadedGraph upload_graph_text(const ClientContext& context, const std::string& name,
                                const std::string& text);
/// Builds the pattern's graph here (errors name the column of `spec`) and
/// uploads it, as MatrixMarket, under the name "pattern:SPEC".
UploadedGraph upload_pattern(const ClientContext& context, const std::string& spec);

struct JobPlacement {
  std::string graph_id;            ///< the graph it was computed for
  std::vector<std::string> nodes;  ///< node name per task
};

/// PLACEMENT job=N.
JobPlacement fetch_job_placement(const ClientContext& context, unsigned job);

/// PLACE with the fields of `request` (its uid and the server-side flags
/// are not sent: the service takes the caller's uid from munge). Returns the
/// node name per task.
std::vector<std::string> request_placement(const ClientContext& context,
                                           const PlaceRequest& request);

/// RECORD: the placement `nodes` ("a,b,c", one per task) of a direct srun,
/// recorded for its job once Slurm gave it an id. Returns the nodes.
std::vector<std::string> record_placement(const ClientContext& context,
                                          const std::string& graph_id, unsigned job,
                                          const std::string& strategy,
                                          const std::string& nodes);

}  // namespace tofa::service
