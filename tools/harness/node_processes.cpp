#include "harness/node_processes.hpp"

#include <signal.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <tuple>

#include "base/error.hpp"
#include "harness/cluster_files.hpp"
#include "harness/plugin_host.hpp"
#include "harness/processes.hpp"
#include "service/responder.hpp"

namespace tofa::harness {
namespace {

void wait_for_sigterm() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  int signal = 0;
  sigwait(&set, &signal);
}

void block_termination_signals() {  // before any thread starts: sigwait gets them
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

}  // namespace

std::vector<std::string> responder_group_argv(const ResponderGroupArgs& a) {
  const FailureSpec& f = a.failures;
  char failures[256];
  std::snprintf(failures, sizeof failures, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%llu",
                f.failing_fraction, f.min_outage, f.max_outage, f.repair_rounds, f.frozen_fraction,
                f.drop_rate, static_cast<unsigned long long>(f.seed));
  return {"tofa-harness", "responders", a.dir, std::to_string(a.group), std::to_string(a.first),
          std::to_string(a.last), std::to_string(a.port), std::to_string(a.node_count),
          a.munge_socket, std::to_string(a.freeze_round), failures};
}

ResponderGroupArgs parse_responder_group_argv(const std::vector<std::string>& v) {
  if (v.size() != 11) throw Error("responders: internal subcommand, started by tofa-harness run");
  ResponderGroupArgs a;
  a.dir = v[2];
  a.group = std::stoi(v[3]);
  a.first = std::stoi(v[4]);
  a.last = std::stoi(v[5]);
  a.port = std::stoi(v[6]);
  a.node_count = std::stoi(v[7]);
  a.munge_socket = v[8];
  a.freeze_round = std::stod(v[9]);
  FailureSpec& f = a.failures;
  unsigned long long seed = 0;
  if (std::sscanf(v[10].c_str(), "%lg,%lg,%lg,%lg,%lg,%lg,%llu", &f.failing_fraction,
                  &f.min_outage, &f.max_outage, &f.repair_rounds, &f.frozen_fraction, &f.drop_rate,
                  &seed) != 7)
    throw Error("responders: bad failure spec " + v[10]);
  f.seed = seed;
  return a;
}

void start_node_processes(const ClusterLayout& layout, const std::string& dir,
                          const std::string& munge_socket, const FailureSpec& failures,
                          double freeze_round, std::vector<pid_t>* children) {
  const int n = layout.node_count;
  for (int g = 0; g < layout.responder_groups; ++g) {
    ResponderGroupArgs group;
    group.dir = dir;
    group.group = g;
    std::tie(group.first, group.last) = layout.group_range(g);
    group.port = layout.slurmd_port(group.first) + layout.port_offset;
    group.node_count = n;
    group.munge_socket = munge_socket;
    group.freeze_round = freeze_round;
    group.failures = failures;
    children->push_back(spawn_self(responder_group_argv(group)));
    wait_for_file(dir + "/ready/group-" + std::to_string(g), 120, children->back(),
                  "responder group " + std::to_string(g));
  }
  for (int node = 0; node < layout.spank_nodes; ++node) {
    const std::string name = node_name(node, n);
    children->push_back(spawn_self({"tofa-harness", "slurmd", "-D", "-N", name, dir}));
    // A simulated slurmd of a 158,976-node machine once took over 60 s to
    // start (make results at 861c380).
    wait_for_file(dir + "/ready/slurmd-" + name, 180, children->back(), "simulated slurmd " + name);
  }
}

int run_responder_group(const ResponderGroupArgs& args) {
  block_termination_signals();
  FailureModel model(args.failures, args.node_count);
  std::mutex mutex;
  std::map<int, std::pair<std::uint64_t, int>> attempts;  // node -> (round, answers asked)
  service::ResponderOptions options;
  for (int node = args.first; node < args.last; ++node)
    options.node_names.push_back(node_name(node, args.node_count));
  options.port = args.port;
  options.munge_socket = args.munge_socket;
  options.service_uid = 0;
  options.max_connections = 4096;
  options.max_connections_per_peer = 4096;
  options.filter = [&](const std::string& name, std::uint64_t round) {
    const int node = node_index(name);
    if (node < 0) return false;
    std::lock_guard<std::mutex> lock(mutex);
    if (model.frozen(node) && static_cast<double>(round) >= args.freeze_round) return false;
    if (model.frozen(node)) return true;
    auto& [seen_round, attempt] = attempts[node];
    attempt = seen_round == round ? attempt + 1 : 0;
    seen_round = round;
    return model.up(node, round) && model.delivered(node, round, attempt);
  };
  service::Responder responder(options, [&](int level, const std::string& line) {
    if (level == 0) std::fprintf(stderr, "responders %d: %s\n", args.group, line.c_str());
  });
  touch(args.dir + "/ready/group-" + std::to_string(args.group));
  wait_for_sigterm();
  responder.stop();
  std::lock_guard<std::mutex> lock(mutex);
  std::ofstream(args.dir + "/group-" + std::to_string(args.group) + ".events")
      << model.failures() << " " << model.repairs() << "\n";
  return 0;
}

int run_simulated_slurmd(const std::string& dir, const std::string& node) {
  block_termination_signals();
  const PluginPaths paths = find_plugin_paths();
  PluginHost host(paths.host);
  host.init(dir + "/slurm.conf", dir + "/log/slurmd-" + node + ".log");
  host.start_nodestate(paths.plugin("tofa_nodestate"));
  touch(dir + "/ready/slurmd-" + node);
  wait_for_sigterm();
  host.stop_nodestate();
  return 0;
}

}  // namespace tofa::harness
