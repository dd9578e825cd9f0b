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

/// The part of a recording to replay: after the `after`-th and before the
/// `before`-th MPI_Barrier on all ranks (1-based; 0: from the start, to the
/// end). LAMMPS's run command brackets its time steps with two such barriers
/// (Timer::barrier_start and barrier_stop): its window leaves the setup out.
struct TraceWindow {
  int after = 0;
  int before = 0;
};

/// "A:B" -> {A, B}; "" -> the whole run. Throws Error otherwise.
TraceWindow parse_trace_window(const std::string& text);

struct ResolvedTrace {
  int ranks = 0;
  /// bytes[i * ranks + j]: what rank i sends to rank j in the replay (the
  /// point-to-point sends and the collectives' messages).
  std::vector<std::uint64_t> bytes;
  std::uint64_t events = 0;       ///< lines written, all ranks
  double cpu_seconds = 0;         ///< the computation, all ranks
  std::uint64_t collectives = 0;  ///< collective calls resolved (rank 0's count)
  /// Window only: point-to-point messages left out because their other end
  /// lies outside the window (a send before it, a receive after it).
  std::uint64_t cut_messages = 0;
  /// Rank 0's trace lines between consecutive barriers of all ranks, whole
  /// recording: [0] before the first, [k] between barrier k and k + 1.
  std::vector<std::uint64_t> barrier_gaps;
};

/// Reads TRACE_DIR/0.trace .. (P-1).trace and writes OUT_DIR/R.replay for
/// every rank R (the format: apps/trace.c). Throws ParseError naming the file
/// and line of a malformed or unreplayable event ("u": one-sided, ...), a
/// missing rank, or a collective whose ranks disagree.
/// A request posted on one side of the window's bounds and completed on the
/// other is refused (ParseError); messages whose other end lies outside the
/// window are left out (cut_messages).
ResolvedTrace resolve_trace(const std::string& trace_dir, const std::string& out_dir,
                            TraceWindow window = {});

}  // namespace tofa::sim
