// tofactl's output: replies of the TOFA service turned into sinfo-like tables.
#pragma once

#include <string>
#include <vector>

#include "topology/topology.hpp"

namespace tofactl {

/// Left-aligned columns separated by two spaces; widths from the content.
std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows);

/// Epoch seconds as local "YYYY-MM-DDTHH:MM:SS" (sinfo's style); 0 = "never".
std::string format_time(double epoch);

/// The body of a NODES reply -> NODE STATE P(OUTAGE) LAST_HEARTBEAT ANSWERED MISSED SOURCE.
/// Throws tofa::Error on a malformed reply.
std::string format_nodes(const std::string& reply);
/// The body of a GRAPHS reply -> ID UID NAME TASKS BYTES UPLOADED LAST_USED.
std::string format_graphs(const std::string& reply);
/// A JOB reply -> "key: value" lines, then "task node" lines.
std::string format_job(const std::string& reply);
/// LINKS: the busiest links, one row each.
std::string format_links(const std::string& reply);
/// A LINKS reply as bytes per directed link of `topology` (Topology::link_id).
/// Throws tofa::Error naming a link that is not one of the torus's.
std::vector<double> link_loads_of(const std::string& reply, const tofa::Topology& topology);
/// A NODES reply as one outage probability per node of `topology` (0 for
/// nodes the service does not list; listed nodes outside it are left out).
std::vector<double> outage_of(const std::string& reply, const tofa::Topology& topology);

}  // namespace tofactl
