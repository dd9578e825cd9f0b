// One annealing run over one stage: Metropolis moves and swaps of the
// stage's tasks (Equation 4) along a beta ladder from 10-20% acceptance to
// almost none, re-run between the last lively and the freezing beta while
// budget is left, then a zero-temperature quench and local descent.
#pragma once

#include <cstdint>
#include <vector>

#include "placement_state.hpp"
#include "progress.hpp"
#include "random_stream.hpp"
#include "site_neighbourhood.hpp"

namespace tofa {
namespace anneal {

/// Where a proposal sends a task.
enum class ProposalKind {
  Uniform,  ///< any site (the seed: "between randomly chosen locations")
  Local,    ///< a site next to (or at) a random communication partner
  Mixed,    ///< either, with equal probability
};

/// "uniform", "local" or "mixed"; throws Error otherwise.
ProposalKind parse_proposal_kind(const std::string& text);

struct ChainSettings {
  ProposalKind proposal = ProposalKind::Mixed;
  int steps = 100;                  ///< betas on the ladder
  double initial_acceptance = 0.15;
  double final_acceptance = 1e-3;  ///< of the smallest uphill change, at the last beta
  /// A beta ends early once a sweep's mean energy is no more than this
  /// fraction below the previous sweep's; negative: every beta uses its share.
  double plateau_tolerance = -1;
  /// Keep Equation 3's lower bound (only once every task is placed).
  bool keep_lowest = true;
};

/// Limits of one stage; a stage ends early when every beta has plateaued.
struct ChainBudget {
  std::uint64_t proposals = 0;
  double seconds = 0;  ///< 0: no time limit (the run is then deterministic)
};

struct ChainReport {
  std::uint64_t proposals = 0;
  std::uint64_t accepted = 0;
  double first_beta = 0;
  double last_beta = 0;
  double energy = 0;  ///< F of the placed tasks at the end
};

/// Anneals the tasks in `movable` (all placed) over the sites that hold one
/// of them or have room. Other placed tasks stay where they are but count in
/// the energy. `scale` normalizes energy changes (the seed's F_min). The
/// returned placement is the lowest-energy one seen at the end of a sweep.
ChainReport anneal_stage(PlacementState& state, const SiteNeighbourhood& around,
                         const std::vector<int>& movable, double scale,
                         const ChainSettings& settings, const ChainBudget& budget,
                         RandomStream& random, ProgressReporter& progress);

}  // namespace anneal
}  // namespace tofa
