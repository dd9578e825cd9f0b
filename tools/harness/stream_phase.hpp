// The job-stream phase: FIFO with EASY backfilling over the synthetic
// cluster, once per strategy. TOFA strategies (and Slurm's block layout,
// "default-slurm") place every job through the service, as select/cons_tres
// does (tofa_service_choose_nodes_from on the free CPUs, then the strategy on the
// chosen nodes by tofa_service_map_later; a failed node choice gets Slurm's
// layout, as there); "mc1x1" and "snake" are the Bunde
// seed's allocators, tasks in allocation order, with the seed's mappers also
// scored on each of their allocations.
// Every job communicates as `graphs` says.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/job_graphs.hpp"
#include "harness/stream/swf.hpp"
#include "topology/topology.hpp"

namespace tofa::harness {

/// One strategy's stream; `outage` is the truth the metrics use (P(abort)).
/// One line per job goes to `jobs_csv` (job, tasks, submit, start, wait,
/// hop-bytes, average hops, P(abort), completion proxy).
nlohmann::ordered_json run_stream(const std::string& strategy, const Topology& topology,
                                  const std::vector<StreamJob>& jobs,
                                  const std::vector<double>& outage, JobGraphs& graphs,
                                  const std::string& jobs_csv);

}  // namespace tofa::harness
