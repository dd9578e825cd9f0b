// What tofa-sim knows about its SMPI applications.
#include "app_spec.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "apps/md_grid.h"
#include "base/error.hpp"
#include "trace_resolve.hpp"

namespace tofa::sim {

namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string number(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

CommGraph md_graph(const AppSpec& app) {
  if (app.ranks < 1) throw Error("md: the rank count is needed for its graph (--ranks)");
  int grid[3];
  md_grid(app.ranks, grid);
  const double side = std::cbrt(app.atoms / app.density);
  HaloExchange halo;
  halo.tasks = {grid[0], grid[1], grid[2]};
  halo.box = {side, side, side};
  halo.cutoff = app.cutoff;
  halo.staged = true;  // apps/md.c swaps as LAMMPS does
  halo.bytes_per_volume = app.density * app.bytes_per_atom * static_cast<double>(app.steps);
  const long reductions = app.reduce_every > 0 ? app.steps / app.reduce_every : 0;
  try {
    // The library numbers the bricks x fastest; apps/md.c's ranks are
    // LAMMPS's, z fastest (md_rank). The allreduce's partners are ranks.
    std::vector<CommEdge> edges;
    for (CommEdge e : halo_exchange_graph(halo).undirected_edges()) {
      for (int* task : {&e.from, &e.to}) {
        const int x[3] = {*task % grid[0], *task / grid[0] % grid[1], *task / (grid[0] * grid[1])};
        *task = md_rank(x, grid);
      }
      edges.push_back(e);
    }
    halo.bytes_per_volume = 0;
    halo.allreduce_bytes = 8.0 * app.reduce_doubles * static_cast<double>(reductions);
    if (halo.allreduce_bytes > 0)
      for (const CommEdge& e : halo_exchange_graph(halo).undirected_edges())
        if (e.bytes > 0) edges.push_back(e);
    return CommGraph::from_directed_edges(app.ranks, edges);
  } catch (const Error& e) {
    throw Error("md on " + std::to_string(app.ranks) + " ranks (grid " + std::to_string(grid[0]) +
                "x" + std::to_string(grid[1]) + "x" + std::to_string(grid[2]) + ", box side " +
                number(side) + "): " + e.what());
  }
}

}  // namespace

AppKind parse_app_kind(const std::string& name) {
  const std::string n = lower(name);
  if (n == "replay") return AppKind::Replay;
  if (n == "dt") return AppKind::Dt;
  if (n == "md") return AppKind::Md;
  if (n == "trace") return AppKind::Trace;
  throw Error("unknown application '" + name + "': expected replay, dt, md or trace");
}

DtGraph parse_dt_graph(const std::string& name) {
  const std::string n = lower(name);
  if (n == "bh") return DtGraph::BlackHole;
  if (n == "wh") return DtGraph::WhiteHole;
  if (n == "sh") return DtGraph::Shuffle;
  throw Error("unknown DT graph '" + name + "': expected bh, wh or sh");
}

std::string dt_graph_name(DtGraph graph) {
  switch (graph) {
    case DtGraph::BlackHole:
      return "BH";
    case DtGraph::WhiteHole:
      return "WH";
    case DtGraph::Shuffle:
      return "SH";
  }
  return "?";
}

std::string describe(const AppSpec& app) {
  switch (app.kind) {
    case AppKind::Replay:
      return "replay " + app.matrix + " (" + std::to_string(app.rounds) + " rounds)";
    case AppKind::Dt:
      return "dt " + dt_graph_name(app.dt_graph) + " class " + std::string(1, app.npb_class);
    case AppKind::Md:
      return "md " + std::to_string(app.ranks) + " ranks, " + std::to_string(app.steps) +
             " steps, " + number(app.atoms) + " atoms";
    case AppKind::Trace:
      return "trace " + app.trace + (app.trace_window.empty() ? "" : " window " + app.trace_window);
  }
  return "?";
}

std::string app_program(AppKind kind) {
  switch (kind) {
    case AppKind::Replay:
      return "tofa-sim-replay";
    case AppKind::Dt:
      return "tofa-sim-dt";
    case AppKind::Md:
      return "tofa-sim-md";
    case AppKind::Trace:
      return "tofa-sim-trace";
  }
  return "?";
}

std::string result_prefix(AppKind kind) { return app_program(kind) + ":"; }

CommGraph app_graph(const AppSpec& app) {
  switch (app.kind) {
    case AppKind::Replay:
      return read_graph(app.matrix, GraphFormat::DenseMatrix);
    case AppKind::Dt:
      return npb_dt_graph(app.dt_graph, app.npb_class);
    case AppKind::Md:
      return md_graph(app);
    case AppKind::Trace:
      return read_graph(app.trace + ".mat", GraphFormat::DenseMatrix);
  }
  throw Error("unknown application");
}

int app_rank_count(const AppSpec& app) {
  if (app.kind == AppKind::Md) return app.ranks;
  return app_graph(app).task_count();
}

namespace {

std::string absolute_path(const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  std::string cwd(4096, '\0');
  if (getcwd(cwd.data(), cwd.size()) == nullptr) throw Error("cannot read the current directory");
  return std::string(cwd.c_str()) + "/" + path;
}

std::vector<std::string> program_arguments(const AppSpec& app) {
  switch (app.kind) {
    case AppKind::Replay: {
      return {"-r", std::to_string(app.rounds), "-f", number(app.flops), absolute_path(app.matrix)};
    }
    case AppKind::Dt:
      return {"-c", std::string(1, app.npb_class), "-g", dt_graph_name(app.dt_graph)};
    case AppKind::Md:
      return {"-s", std::to_string(app.steps),
              "-a", number(app.atoms),
              "-e", std::to_string(app.reduce_every),
              "-c", number(app.cutoff),
              "-d", number(app.density),
              "-b", number(app.bytes_per_atom),
              "-f", number(app.flops_per_atom),
              "-r", std::to_string(app.reduce_doubles)};
    case AppKind::Trace:
      return {"-f", number(app.cpu_speed), absolute_path(replay_dir(app))};
  }
  return {};
}

}  // namespace

std::vector<std::string> app_arguments(const AppSpec& app) {
  std::vector<std::string> args = program_arguments(app);
  if (!app.sent_matrix.empty()) {
    if (app.kind == AppKind::Replay)
      throw Error(
          "--sent-matrix: only dt, md and trace count what they send (the replay sends its "
          "matrix)");
    // before the job directories (getopt stops at the first of them)
    args.insert(app.kind == AppKind::Trace ? args.end() - 1 : args.end(),
                {"-m", absolute_path(app.sent_matrix)});
  }
  return args;
}

std::string replay_dir(const AppSpec& app) {
  const TraceWindow w = parse_trace_window(app.trace_window);
  if (w.before == 0 && w.after == 0) return app.trace + ".replay";
  return app.trace + ".replay-" + std::to_string(w.after) + "-" + std::to_string(w.before);
}

void prepare_app(const AppSpec& app) {
  if (app.kind != AppKind::Trace) return;
  namespace fs = std::filesystem;
  const fs::path recorded = app.trace + ".trace", resolved = replay_dir(app);
  if (!fs::exists(recorded / "0.trace"))
    throw Error("--trace " + app.trace + ": no " + (recorded / "0.trace").string() +
                " (record it with tofa-profile --trace -o DIR --name NAME)");
  if (fs::exists(resolved / "0.replay") &&
      fs::last_write_time(resolved / "0.replay") >= fs::last_write_time(recorded / "0.trace"))
    return;
  resolve_trace(recorded.string(), resolved.string(), parse_trace_window(app.trace_window));
}

std::vector<std::string> app_settings(const AppSpec& app) {
  if (app.kind == AppKind::Md) return {"smpi/allreduce:rdb"};
  return {};
}

std::string find_app(AppKind kind, const std::string& given,
                     const std::vector<std::string>& directories) {
  if (!given.empty()) return given;
  const std::string program = app_program(kind);
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("TOFA_SIM_APPDIR"); env && *env)
    candidates.push_back(std::string(env) + "/" + program);
  for (const std::string& directory : directories)
    if (!directory.empty()) candidates.push_back(directory + "/" + program);
  std::string looked;
  for (const std::string& path : candidates) {
    if (access(path.c_str(), X_OK) == 0) return path;
    looked += (looked.empty() ? "" : ", ") + path;
  }
  throw Error(program + " not found (looked at " + looked +
              "): give it with --app-binary or a directory in TOFA_SIM_APPDIR");
}

}  // namespace tofa::sim
