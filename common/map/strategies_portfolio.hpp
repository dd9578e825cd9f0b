// Factory of the auto strategy (map/portfolio/auto.cpp), for the registry
// in common/mapper.cpp.
#pragma once

#include <memory>

#include "../tofa/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_auto_mapper();

}  // namespace tofa
