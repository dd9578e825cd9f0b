// tofa-sim batch: the seed's batches of instances under node failures
// (section 5.2), each distinct placement simulated once.
#pragma once

#include "batch_settings.hpp"

namespace tofa::sim {

/// Runs the batches and prints one line per batch and a summary; writes
/// the JSON with every seed. Returns the exit status.
int batch_command(const BatchSettings& settings);

}  // namespace tofa::sim
