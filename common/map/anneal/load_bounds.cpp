#include "load_bounds.hpp"

namespace tofa {
namespace anneal {

LoadBounds balanced_load(int tasks, int sites) {
  LoadBounds bounds;
  bounds.lowest = tasks / sites;
  const int above = tasks % sites;
  bounds.highest = above > 0 ? bounds.lowest + 1 : bounds.lowest;
  bounds.highest_sites = above > 0 ? above : sites;
  return bounds;
}

LoadBounds slot_load(int sites, int slots) {
  LoadBounds bounds;
  bounds.lowest = 0;
  bounds.highest = slots;
  bounds.highest_sites = sites;
  return bounds;
}

}  // namespace anneal
}  // namespace tofa
