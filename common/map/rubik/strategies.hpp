// Factory of the rubik strategy (strategy.cpp); the registry
// (map/registry.cpp) lists it.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

/// "rubik": the layout of a Rubik spec file (parameter spec=FILE).
std::unique_ptr<Mapper> make_rubik_mapper();

}  // namespace tofa
