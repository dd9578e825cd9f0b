// Factory of the compact strategy (map/compact/strategy.cpp), for the
// registry in common/map/registry.cpp.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_compact_mapper();

}  // namespace tofa
