// Factories of the MIMS and Rubik strategies (common/map/mims_pack.cpp,
// common/map/rubik.cpp). The registry (common/mapper.cpp) lists them.
#pragma once

#include <memory>

#include "../tofa/mapper.hpp"

namespace tofa {

/// "mims": MIMS packing into packs of k = slots per node (parameter
/// pack-size=K for a smaller k), then the packs placed one per node by the
/// strategy named by parameter place=NAME (default "tofa").
std::unique_ptr<Mapper> make_mims_mapper();

/// "rubik": the layout of a Rubik spec file (parameter spec=FILE).
std::unique_ptr<Mapper> make_rubik_mapper();

}  // namespace tofa
