// Factory of the auto strategy (map/portfolio/auto.cpp), for the registry
// in common/map/registry.cpp.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_auto_mapper();

/// tofa.conf's PlacementBudget (milliseconds for a job of 128 tasks) for a
/// job of `tasks` tasks, in seconds: it grows as tasks^0.8 (53 ms at 1024,
/// 0.84 s at 32,768, 1.5 s at 65,536), and is at least half of it (up to
/// 54 tasks).
double scaled_placement_budget(double budget_ms, int tasks);

/// Budgets auto's route-around search may take beyond the job's own while
/// every placement found may abort (when some candidate fails and the
/// fault-free ones hold the job): auto may then take up to 1 + this many
/// budgets and 1 ms. For reports (bench/bench_quality).
double auto_abort_overrun_budgets();

}  // namespace tofa
