// Factories of the stencil family (seed Bunde et al., "Task Mapping Stencil
// Computations for Non-Contiguous Allocations"), one per file
// common/map/stencil/stencil_<name>.cpp, registered as "stencil-<name>".
//
// Every one of them maps a job whose tasks form an X x Y x Z stencil (the
// parameter stencil=XxYxZ, or recognized in the graph) onto the ranks of the
// first ceil(tasks/slots) candidate nodes, `slots` ranks per node, and
// returns a bijection between tasks and ranks. Parameters:
//   stencil=XxYxZ   job shape (task id = x + X*(y + Y*z)); default: inferred
//   rotate=no       skip the rotation step (default yes; BASELINE and
//                   GROUPING never rotate)
//   group=AxBxC     GROUPING's block (default: see stencil/group_block.hpp)
//   orders=all|rowcol   ORDERED's candidates (default all: 6 axis nestings
//                   x 8 flips; rowcol: the seed's row and column major x 8)
//   max-swaps=N, max-evaluations=N, time-limit=SECONDS   INCIMPROVE's bounds
#pragma once

#include <memory>

#include "map/mapper.hpp"

namespace tofa {

std::unique_ptr<Mapper> make_stencil_baseline_mapper();
std::unique_ptr<Mapper> make_stencil_grouping_mapper();
std::unique_ptr<Mapper> make_stencil_colmajor_mapper();
std::unique_ptr<Mapper> make_stencil_rowmajor_mapper();
std::unique_ptr<Mapper> make_stencil_ordered_mapper();
std::unique_ptr<Mapper> make_stencil_corner_mapper();
std::unique_ptr<Mapper> make_stencil_allcorners_mapper();
std::unique_ptr<Mapper> make_stencil_overlay_mapper();
std::unique_ptr<Mapper> make_stencil_twowayoverlay_mapper();
std::unique_ptr<Mapper> make_stencil_rcb_mapper();
std::unique_ptr<Mapper> make_stencil_incimprove_mapper();

}  // namespace tofa
