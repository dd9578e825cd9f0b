// Factories of the built-in strategies, one per file in common/map/.
// The registry (common/mapper.cpp) lists them; nothing else should call these.
#pragma once

#include <memory>

#include "../tofa/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_default_slurm_mapper();
std::unique_ptr<Mapper> make_random_mapper();
std::unique_ptr<Mapper> make_greedy_mapper();
std::unique_ptr<Mapper> make_tofa_mapper();
std::unique_ptr<Mapper> make_tofa_compact_mapper();

}  // namespace tofa
