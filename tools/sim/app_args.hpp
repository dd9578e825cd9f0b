// The command-line options that choose an application and its size
// (tofa-sim graph, run and batch).
#pragma once

#include <CLI/CLI.hpp>

#include <cctype>
#include <string>

#include "app_spec.hpp"
#include "base/error.hpp"

namespace tofa::sim {

struct AppArgs {
  std::string kind;  ///< empty: replay
  std::string graph;
  std::string npb_class = "B";
  std::string dt_graph = "bh";
  AppSpec spec_defaults;  ///< holds the numeric options

  void add_to(CLI::App& command) {
    AppSpec& s = spec_defaults;
    command.add_option("--app", kind, "replay (default), dt, md or trace");
    command.add_option("--trace", s.trace,
                       "trace: tofa-profile's DIR/NAME of a --trace recording (NAME.mat, NAME.trace/)");
    command.add_option("--trace-window", s.trace_window,
                       "trace: replay between world barriers A and B only (A:B; tofa-sim trace lists them)");
    command.add_option("--cpu-speed", s.cpu_speed,
                       "trace: flop/s that replay the recorded CPU time as measured (default 6e9)")
        ->check(CLI::PositiveNumber);
    command.add_option("--graph", graph,
                       "replay: communication matrix (dense, as tofa-profile writes)");
    command.add_option("--rounds", s.rounds, "replay: rounds (default 10)")
        ->check(CLI::Range(1, 1000000));
    command.add_option("--flops", s.flops, "replay: computation per rank and round (default 0)")
        ->check(CLI::NonNegativeNumber);
    command.add_option("--class", npb_class, "dt: NPB class S, W, A, B, C or D (default B)");
    command.add_option("--graph-kind", dt_graph, "dt: bh, wh or sh (default bh)");
    command.add_option("--ranks", s.ranks, "md: ranks (default: the hostfile's)")
        ->check(CLI::Range(1, 1 << 20));
    command.add_option("--steps", s.steps, "md: time steps (default 100)")
        ->check(CLI::Range(1L, 1L << 40));
    command.add_option("--atoms", s.atoms, "md: atoms (default 32000)")
        ->check(CLI::Range(1.0, 1e15));
    command
        .add_option("--reduce-every", s.reduce_every,
                    "md: steps between allreduces (default 10, 0: none)")
        ->check(CLI::Range(0L, 1L << 40));
    command.add_option("--cutoff", s.cutoff, "md: ghost shell thickness (default 2.8)")
        ->check(CLI::PositiveNumber);
    command.add_option("--density", s.density, "md: atoms per unit volume (default 0.8442)")
        ->check(CLI::PositiveNumber);
    command
        .add_option("--bytes-per-atom", s.bytes_per_atom,
                    "md: bytes per ghost atom and step (default 48)")
        ->check(CLI::NonNegativeNumber);
    command
        .add_option("--flops-per-atom", s.flops_per_atom,
                    "md: flops per atom and step (default 1000)")
        ->check(CLI::NonNegativeNumber);
    command
        .add_option("--reduce-doubles", s.reduce_doubles, "md: doubles per allreduce (default 8)")
        ->check(CLI::Range(1, 1 << 24));
  }

  /// The application; throws Error on a bad name or a missing matrix.
  AppSpec spec() const {
    AppSpec s = spec_defaults;
    s.kind = kind.empty() ? AppKind::Replay : parse_app_kind(kind);
    if (s.kind == AppKind::Replay && graph.empty())
      throw tofa::Error("the replay needs --graph MATRIX (or choose --app dt or md)");
    if (s.kind == AppKind::Trace && s.trace.empty())
      throw tofa::Error("--app trace needs --trace DIR/NAME (a tofa-profile --trace recording)");
    s.matrix = graph;
    prepare_app(s);
    if (npb_class.size() != 1) throw tofa::Error("--class: expected one letter, S W A B C or D");
    s.npb_class = static_cast<char>(std::toupper(static_cast<unsigned char>(npb_class[0])));
    s.dt_graph = parse_dt_graph(dt_graph);
    return s;
  }
};

}  // namespace tofa::sim
