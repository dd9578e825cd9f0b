// How many tasks a site may hold: the seed's Equation 3, or plain slots.
#pragma once

namespace tofa {
namespace anneal {

/// Every complete placement has lowest <= load <= highest on every site and
/// at most `highest_sites` sites at `highest`.
struct LoadBounds {
  int lowest = 0;
  int highest = 1;
  int highest_sites = 0;
};

/// Equation 3: with p = tasks / sites, Int(p) <= n(site) <= Int(p) + 1, and
/// exactly tasks mod sites sites above Int(p) (all sites at p when p is whole).
LoadBounds balanced_load(int tasks, int sites);

/// Up to `slots` tasks on any site, none required (Slurm's packing freedom).
LoadBounds slot_load(int sites, int slots);

}  // namespace anneal
}  // namespace tofa
