// Factories of the baseline strategies (default-slurm, random, greedy,
// greedy-routes), one file each in this folder; the registry
// (map/registry.cpp) lists them.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_default_slurm_mapper();
std::unique_ptr<Mapper> make_random_mapper();
std::unique_ptr<Mapper> make_greedy_mapper();
std::unique_ptr<Mapper> make_greedy_routes_mapper();

}  // namespace tofa
