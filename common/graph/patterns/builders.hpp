// The registered patterns' builders (patterns.cpp's table), one file each.
#pragma once

#include <vector>

#include "graph/graph.hpp"
#include "graph/patterns/pattern_spec.hpp"

namespace tofa::patterns {

CommGraph halo_pattern(const PatternSpec& spec);
CommGraph allreduce_pattern(const PatternSpec& spec);
CommGraph bcast_pattern(const PatternSpec& spec);
CommGraph alltoall_pattern(const PatternSpec& spec);
CommGraph fft_pattern(const PatternSpec& spec);
CommGraph training_pattern(const PatternSpec& spec);

/// The graph of `edges` on `tasks` tasks; refuses (naming `key`) a task
/// count above 2^24 or more than 2^26 records before they are built.
void check_pattern_size(const PatternSpec& spec, const char* key, long long tasks,
                        long long records);

}  // namespace tofa::patterns
