// Factories of the Scotch-based strategies of the TOFA seed (tofa,
// tofa-compact, tofa-packed); the registry (map/registry.cpp) lists them.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_tofa_mapper();
std::unique_ptr<Mapper> make_tofa_compact_mapper();
std::unique_ptr<Mapper> make_tofa_packed_mapper();

}  // namespace tofa
