// Factory of the anneal strategy (map/anneal/strategy.cpp), for the registry in
// common/map/registry.cpp.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_anneal_mapper();

}  // namespace tofa
