// The anneal strategy's --param settings, parsed and checked in one place.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "initial_map.hpp"
#include "map/anneal/energy.hpp"
#include "metropolis.hpp"
#include "progress.hpp"

namespace tofa {
namespace anneal {

enum class DivideMode { Auto, Never, Always };
enum class Search { Anneal, None, Descent };

struct AnnealOptions {
  DistanceMetric metric = DistanceMetric::Hops;  ///< metric=hops|scaled|euclid
  StartKind start = StartKind::Grow;  ///< start=grow|heuristic|basic|rank|random|scotch
  /// attempts=N of the grow start: one per growth threshold, the rest with
  /// ties broken at random.
  int grow_attempts = 16;
  DivideMode divide = DivideMode::Auto;          ///< divide=auto|no|yes
  double limit = 0.9;                            ///< limit=L, Equation 5's bound
  /// iterations=N proposals for the beta ladders (0: sweeps * tasks). Every
  /// beta gets at least one sweep, and the warm-up (at most 60 sweeps) and
  /// the final quench (at most 20) come on top.
  std::uint64_t iterations = 0;
  double sweeps = 2000;          ///< sweeps=S, proposals per task when iterations is unset
  double budget_seconds = 0;     ///< budget=SECONDS, 0 for none
  bool balanced_load = true;     ///< load=balanced (Equation 3) | slots
  bool avoid_faulty = true;      ///< faulty=avoid|ignore
  ProgressMode progress = ProgressMode::Auto;  ///< progress=auto|yes|no
  /// anneal=yes|no|descent: annealing, the starting map itself, or the
  /// starting map improved by local descent only (what scales to thousands
  /// of tasks within a budget).
  Search search = Search::Anneal;
  /// With StartKind::Given: the placement to start from (empty: the tofa
  /// strategy's, computed here).
  std::vector<int> given_start;
  /// Annealing only: local descent from the start first, within this share
  /// of each stage's time (auto's search around failing nodes).
  double descent_first_share = 0;
  ChainSettings chain;           ///< steps=N, proposal=uniform|local|mixed,
                                 ///< accept=FIRST (initial acceptance)
};

/// Reads the keys above from a request's parameters; unknown keys are left
/// to other strategies. Throws Error "anneal: parameter KEY: expected ...,
/// found 'VALUE'".
AnnealOptions parse_anneal_options(const std::map<std::string, std::string>& parameters);

}  // namespace anneal
}  // namespace tofa
