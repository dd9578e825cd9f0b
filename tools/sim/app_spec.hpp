// The SMPI applications tofa-sim runs (apps/*.c): their arguments, the
// SimGrid settings they need, and their communication graphs from the
// library's generators, for the placement strategies.
#pragma once

#include <string>
#include <vector>

#include "graph/generators.hpp"
#include "graph/graph.hpp"

namespace tofa::sim {

enum class AppKind {
  Replay,  ///< tofa-sim-replay: a communication matrix, phase by phase
  Dt,      ///< tofa-sim-dt: NPB DT's BH, WH or SH graph
  Md,      ///< tofa-sim-md: halo exchange, compute, periodic allreduce
  Trace,   ///< tofa-sim-trace: a recorded run (tofa-profile --trace), replayed
};

struct AppSpec {
  AppKind kind = AppKind::Replay;
  // Replay
  std::string matrix;  ///< dense comm.mat
  int rounds = 10;
  double flops = 0;  ///< per rank and round
  // Dt
  char npb_class = 'B';
  DtGraph dt_graph = DtGraph::BlackHole;
  // Md (apps/md.c documents each)
  int ranks = 0;  ///< 0: the placement's rank count
  long steps = 100;
  double atoms = 32000;
  long reduce_every = 10;
  double cutoff = 2.8;
  double density = 0.8442;
  double bytes_per_atom = 48;
  double flops_per_atom = 1000;
  int reduce_doubles = 8;
  // Trace: tofa-profile's output DIR/NAME (DIR/NAME.mat, DIR/NAME.trace/);
  // the replayable form goes to DIR/NAME.replay/ (trace_resolve.hpp)
  std::string trace;
  std::string trace_window;  ///< "A:B": between world barriers A and B (TraceWindow)
  double cpu_speed = 6e9;  ///< flop/s that replay the recorded CPU time as measured
  // Dt, Md, Trace
  std::string sent_matrix;  ///< write the bytes the ranks send here (-m)
};

/// "replay", "dt", "md", "trace"; throws Error otherwise.
AppKind parse_app_kind(const std::string& name);
/// "bh", "wh", "sh" (any case); throws Error otherwise.
DtGraph parse_dt_graph(const std::string& name);
std::string dt_graph_name(DtGraph graph);  ///< "BH", "WH", "SH"

/// A short description for output: "dt BH class C", "md 64 ranks 100 steps ...".
std::string describe(const AppSpec& app);

/// The executable's file name: "tofa-sim-replay", "tofa-sim-dt", "tofa-sim-md",
/// "tofa-sim-trace".
std::string app_program(AppKind kind);
/// The prefix of the line the application prints its results on ("tofa-sim-dt:").
std::string result_prefix(AppKind kind);

/// The communication graph: the matrix (Replay), the recorded NAME.mat
/// (Trace), npb_dt_graph (Dt), or
/// halo_exchange_graph over the whole run (Md: steps x the halo, plus the
/// allreduces' recursive doubling with reduce_doubles x 8 bytes per step of
/// each of steps / reduce_every reductions). Md needs app.ranks >= 1.
/// Throws Error (or ParseError for a bad matrix).
CommGraph app_graph(const AppSpec& app);

/// The number of MPI ranks the application needs: the matrix's N, the DT
/// graph's nodes, or app.ranks for Md (0 when unset).
int app_rank_count(const AppSpec& app);

/// Arguments after the program on smpirun's command line. Paths are made
/// absolute (smpirun runs in a work directory). Throws Error for a
/// sent_matrix of the replay.
std::vector<std::string> app_arguments(const AppSpec& app);

/// Where a Trace's replayable form goes: DIR/NAME.replay, or
/// DIR/NAME.replay-A-B for a window.
std::string replay_dir(const AppSpec& app);

/// A Trace's replay directory, resolved from its recording when missing or
/// older than it (resolve_trace); other kinds: nothing. Not thread-safe:
/// call it once before simulating.
void prepare_app(const AppSpec& app);

/// SimGrid settings the application needs beyond tofa-sim's own (Md: the
/// recursive-doubling allreduce its graph describes).
std::vector<std::string> app_settings(const AppSpec& app);

/// Path of the application's executable: `given` when not empty, else
/// $TOFA_SIM_APPDIR/<program>, else the first of `directories` that has an
/// executable <program>. Throws Error naming where it looked.
std::string find_app(AppKind kind, const std::string& given,
                     const std::vector<std::string>& directories);

}  // namespace tofa::sim
