// random: every task on a uniformly drawn free slot, reproducible for a seed.
#include <cstdint>
#include <random>

#include "strategies.hpp"

namespace tofa {
namespace {

/// Uniform integer in [0, bound) by rejection, so that the sequence depends
/// only on mt19937_64 (std::uniform_int_distribution differs between
/// standard libraries, which would make placements platform-dependent).
std::uint64_t draw_below(std::mt19937_64& engine, std::uint64_t bound) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
  std::uint64_t value;
  do value = engine();
  while (value >= limit);
  return value % bound;
}

/// Draws task 0's slot, then task 1's among the remaining ones, ...: a
/// partial Fisher-Yates shuffle of all candidate slots.
class RandomMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    const Capacity fit = check_capacity(request);
    std::vector<int> free_slots;
    free_slots.reserve(fit.candidates.size() * fit.slots);
    for (int node : fit.candidates) free_slots.insert(free_slots.end(), fit.slots, node);

    std::mt19937_64 engine(request.seed);
    Placement placement(fit.tasks);
    for (std::size_t task = 0; task < placement.size(); ++task) {
      const std::size_t pick = task + draw_below(engine, free_slots.size() - task);
      std::swap(free_slots[task], free_slots[pick]);
      placement[task] = free_slots[task];
    }
    return placement;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_random_mapper() { return std::make_unique<RandomMapper>(); }

}  // namespace tofa
