// Communication graphs from a short description of what a job does, for
// users who never profile: "halo:ranks=8x8x4,cells=200x200x100",
// "allreduce:ranks=64,bytes=4G", "training:tp=4,pp=4,dp=8,...".
// docs/patterns.md gives every pattern's formula.
#pragma once

#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace tofa {

struct PatternKind {
  const char* name;
  const char* usage;  ///< NAME:KEY=VALUE,... with defaults, for --help
};

/// The registered patterns, in the order --help lists them.
const std::vector<PatternKind>& pattern_kinds();

/// The graph of the pattern `spec` ("NAME:KEY=VALUE,..."). Throws Error
/// "bad pattern 'SPEC' at column C: ..." on anything it cannot use.
CommGraph pattern_graph(const std::string& spec);

}  // namespace tofa
