// Factory of the mims strategy (strategy.cpp); the registry
// (map/registry.cpp) lists it.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

/// "mims": MIMS packing into packs of k = slots per node (parameter
/// pack-size=K for a smaller k), then the packs placed one per node by the
/// strategy named by parameter place=NAME (default "tofa").
std::unique_ptr<Mapper> make_mims_mapper();

}  // namespace tofa
