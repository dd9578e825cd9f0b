// The service protocol: one request text and the caller's uid (from munge)
// in, one reply text out. See README "Service protocol" for the verbs.
#pragma once

#include <sys/types.h>

#include <string>

#include "service/service_state.hpp"

namespace tofa::service {

/// Verbs the service answers, for error messages and documentation.
const char* const kServiceVerbs =
    "PING, UPLOAD_GRAPH, GRAPHS, DELETE_GRAPH, NODES, SET_OUTAGE, CLEAR_OUTAGE, PLACE, "
    "RECORD, PLACEMENT, JOB or LINKS";

/// Never throws: every failure becomes "ERROR <reason>" (one line).
std::string handle_request(ServiceState& state, const std::string& request, uid_t uid) noexcept;

}  // namespace tofa::service
