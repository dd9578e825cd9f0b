// Factory of the anneal strategy (map/anneal.cpp), for the registry in
// common/mapper.cpp.
#pragma once

#include <memory>

#include "../tofa/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_anneal_mapper();

}  // namespace tofa
