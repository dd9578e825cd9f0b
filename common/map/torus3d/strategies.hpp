// Factory of the torus3d strategy (strategy.cpp); the registry
// (map/registry.cpp) lists it.
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

/// "torus3d": Slurm 26.05's topology/torus3d policy: the job's
/// ceil(tasks / slots) nodes as one free box of a configured shape
/// (--param shapes=AxBxC[/SXxSYxSZ][@XxYxZ],...), tasks along the box's
/// wrap-aware Z-order curve. Throws Error when no shape has that many nodes
/// or no box of such a shape is free.
std::unique_ptr<Mapper> make_torus3d_mapper();

}  // namespace tofa
