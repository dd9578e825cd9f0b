// tofa-profile's time-independent trace (tools/profile/tofaprof_trace.c
// documents it) made replayable: every receive names the rank and tag it
// matched, and each collective becomes the point-to-point messages of its
// algorithm, receives included, round by round. apps/trace.c replays the
// result under SMPI on any placement.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tofa::sim {

/// The tag of the collectives' messages in the replay; a trace whose own
/// tags reach it is refused.
constexpr int kCollectiveTag = 1 << 28;

struct ResolvedTrace {
  int ranks = 0;
  /// bytes[i * ranks + j]: what rank i sends to rank j in the replay (the
  /// point-to-point sends and the collectives' messages).
  std::vector<std::uint64_t> bytes;
  std::uint64_t events = 0;       ///< lines written, all ranks
  double cpu_seconds = 0;         ///< the computation, all ranks
  std::uint64_t collectives = 0;  ///< collective calls resolved (rank 0's count)
};

/// Reads TRACE_DIR/0.trace .. (P-1).trace and writes OUT_DIR/R.replay for
/// every rank R (the format: apps/trace.c). Throws ParseError naming the file
/// and line of a malformed or unreplayable event ("u": one-sided, ...), a
/// missing rank, or a collective whose ranks disagree.
ResolvedTrace resolve_trace(const std::string& trace_dir, const std::string& out_dir);

}  // namespace tofa::sim
