// A placement moved whole around a torus: a translation keeps every hop
// distance, so the hop-bytes of Equation 1 stay as they are, and it can
// carry a layout the application numbers its ranks for (Slurm's block
// layout for LAMMPS's grid) off the failing nodes its routes cross.
#pragma once

#include "faults/route_faults.hpp"
#include "map/mapper.hpp"

namespace tofa {

/// Translations tried, at most, and routes walked for P(abort) among them.
/// Not tuned: bounds on the time at 65,536 nodes (a translation costs a
/// pass over the placement's nodes; an abort check, over its edges' routes).
constexpr int kMaxTranslations = 512;
constexpr int kMaxTranslationChecks = 32;

/// `placement` translated by the smallest offset (steps summed over the
/// dimensions; among about kMaxTranslations around none) that puts each of
/// its nodes on a candidate with outage 0 and leaves P(abort) at 0, or empty
/// when none of them does within kMaxTranslationChecks abort checks. Full tori only (empty
/// otherwise): on a mesh a translation changes which routes stay inside.
Placement translate_clear(const MappingRequest& request, const Placement& placement,
                          RouteFaults& faults);

}  // namespace tofa
