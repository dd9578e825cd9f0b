// Cross-traffic measurement: small s4u simulations, one per child process.
#include "crosstraffic.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <utility>

#include "base/error.hpp"
#include "platform.hpp"
#include "progress.hpp"

namespace tofa::sim {
namespace {

struct Flow {
  int from;
  int to;
  double bytes;
};

/// Simulates `flows` and writes their completion times, one per line, to
/// `fd`. Runs in a child process; never returns.
[[noreturn]] void simulate_and_exit(const std::string& platform_path, bool crosstraffic,
                                    const std::vector<Flow>& flows, int fd) {
  std::vector<std::string> args = {
      "tofa-sim", "--cfg=network/model:SMPI", "--cfg=surf/precision:1e-9",
      std::string("--cfg=network/crosstraffic:") + (crosstraffic ? "1" : "0"),
      "--log=root.thres:critical"};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  try {
    simgrid::s4u::Engine engine(&argc, argv.data());
    engine.load_platform(platform_path);
    std::vector<double> finished(flows.size(), -1);
    for (std::size_t i = 0; i < flows.size(); ++i) {
      auto* from = engine.host_by_name(host_name(flows[i].from));
      auto* to = engine.host_by_name(host_name(flows[i].to));
      const auto bytes = static_cast<std::uint64_t>(flows[i].bytes);
      simgrid::s4u::Actor::create("flow" + std::to_string(i), from,
                                  [from, to, bytes, i, &finished] {
                                    simgrid::s4u::Comm::sendto(from, to, bytes);
                                    finished[i] = simgrid::s4u::Engine::get_clock();
                                  });
    }
    engine.run();
    std::string text;
    for (double t : finished) {
      char number[32];
      std::snprintf(number, sizeof number, "%.17g\n", t);
      text += number;
    }
    const bool written = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    _exit(written ? 0 : 1);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tofa-sim: crosstraffic simulation: %s\n", e.what());
    _exit(1);
  }
}

/// Completion time of the first flow of `flows`.
double simulate(const std::string& platform_path, bool crosstraffic,
                const std::vector<Flow>& flows) {
  int fds[2];
  if (pipe(fds) != 0) throw Error("pipe failed");
  const pid_t child = fork();
  if (child < 0) throw Error("fork failed");
  if (child == 0) {
    close(fds[0]);
    simulate_and_exit(platform_path, crosstraffic, flows, fds[1]);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  std::vector<double> times;
  std::istringstream lines(text);
  for (double t; lines >> t;) times.push_back(t);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || times.size() != flows.size())
    throw Error("a crosstraffic simulation failed");
  return times[0];
}

}  // namespace

std::vector<CrossTrafficRow> measure_crosstraffic(const Topology& topology,
                                                  const std::string& platform_path, double bytes,
                                                  int max_hops) {
  if (max_hops < 1 || 2 * max_hops > topology.dims()[0])
    throw Error("crosstraffic: dimension 0 of " + topology.describe() + " must have at least " +
                std::to_string(2 * max_hops) + " nodes for " + std::to_string(max_hops) +
                " hops in one direction");
  std::vector<int> line(max_hops + 1);  // node k: k hops from node 0 along dimension 0
  std::vector<int> coords(topology.dimension_count(), 0);
  for (int k = 0; k <= max_hops; ++k) {
    coords[0] = k;
    line[k] = topology.node_at(coords);
  }
  std::vector<CrossTrafficRow> rows;
  Progress progress("crosstraffic", 6LL * max_hops);
  int done = 0;
  for (bool crosstraffic : {true, false}) {
    for (int hops = 1; hops <= max_hops; ++hops) {
      CrossTrafficRow row{hops, crosstraffic, 0, 0, 0};
      for (double* result : {&row.alone, &row.equal_reverse, &row.long_reverse}) {
        std::vector<Flow> flows = {{line[0], line[hops], bytes}};
        const double reverse_bytes = result == &row.equal_reverse ? bytes : 10 * bytes;
        for (int k = 1; k <= hops && result != &row.alone; ++k)
          flows.push_back({line[k], line[k - 1], reverse_bytes});
        *result = simulate(platform_path, crosstraffic, flows);
        progress.update(++done);
      }
      rows.push_back(row);
    }
  }
  return rows;
}

}  // namespace tofa::sim
