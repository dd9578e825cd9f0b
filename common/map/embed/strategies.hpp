// Factory of the embed strategy (map/embed/strategy.cpp), for the registry in
// common/map/registry.cpp.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_embed_mapper();

}  // namespace tofa
