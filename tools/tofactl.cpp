// tofactl: look at and administer the TOFA service inside slurmctld.
//   tofactl [--conf FILE] [--host H[:PORT]] [--munge-socket S] COMMAND
//   nodes | graphs | job JOBID | links [--top N] [--svg FILE] | set-outage NODE P |
//   clear-outage NODE | all
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "base/error.hpp"
#include "links_svg.hpp"

#include "service/client.hpp"
#include "service/protocol.hpp"
#include "service/tofa_conf.hpp"
#include "tofactl_format.hpp"
#include "tofactl_slurm_conf.hpp"

namespace {

using namespace tofa::service;

struct Options {
  std::string conf;
  std::string host;
  std::string munge_socket;
  unsigned job = 0;
  std::string node;
  std::string probability;
  int top = 20;
  std::string svg;
};

std::string tofa_conf_path(const Options& options) {
  return options.conf.empty()
             ? tofactl::default_tofa_conf(std::getenv("TOFA_CONF"), std::getenv("SLURM_CONF"))
             : options.conf;
}

ClientContext connect(const Options& options) {
  const std::string slurm_conf = tofactl::default_slurm_conf(std::getenv("SLURM_CONF"));
  const tofactl::SlurmDefaults slurm = tofactl::read_slurm_defaults(slurm_conf);
  const std::string conf = tofa_conf_path(options);
  std::string host = options.host;
  if (host.empty()) {
    host = read_service_settings(conf).service_host;
    if (host.empty()) host = slurm.controller_address;
  }
  const std::string munge = options.munge_socket.empty() ? slurm.munge_socket : options.munge_socket;
  return client_context(conf, host, munge);
}

/// The torus of tofa.conf with every loaded link and each node's outage.
void write_links_svg(const Options& options, const ClientContext& context) {
  const std::string conf = tofa_conf_path(options);
  const tofa::Topology topology = read_tofa_conf(conf).topology;
  const std::vector<double> loads =
      tofactl::link_loads_of(call_raw(context, format_message("LINKS", {{"top", "0"}})), topology);
  const std::vector<double> outage = tofactl::outage_of(call_raw(context, "NODES"), topology);
  std::ofstream out(options.svg);
  if (!out) throw tofa::Error("cannot write " + options.svg);
  tofa::write_links_svg(out, topology, loads, outage, "tofactl links: the running TOFA jobs' traffic");
  out.close();
  if (!out) throw tofa::Error("cannot write " + options.svg);
  std::printf("wrote %s\n", options.svg.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Show and administer the TOFA service (node outage, graphs, placements)."};
  Options options;
  app.add_option("--conf", options.conf,
                 "tofa.conf (default $TOFA_CONF, else tofa.conf beside slurm.conf)");
  app.add_option("--host", options.host,
                 "service host[:port] (default ServiceHost, else slurm.conf's SlurmctldHost)");
  app.add_option("--munge-socket", options.munge_socket,
                 "munged socket (default slurm.conf AuthInfo socket=, else munge's default)");
  app.require_subcommand(1);
  CLI::App* nodes = app.add_subcommand("nodes", "outage probability and heartbeats per node");
  CLI::App* graphs = app.add_subcommand("graphs", "uploaded communication graphs you may see");
  CLI::App* job = app.add_subcommand("job", "a job's placement and its metrics");
  job->add_option("JOBID", options.job, "job id")->required();
  CLI::App* links = app.add_subcommand("links", "the running jobs' busiest torus links");
  links->add_option("--top", options.top, "how many (default 20, 0: every loaded link)")
      ->check(CLI::Range(0, 1 << 24));
  links->add_option("--svg", options.svg,
                    "also draw the torus (of tofa.conf) with every loaded link and each node's "
                    "outage probability into FILE");
  CLI::App* set = app.add_subcommand("set-outage", "override a node's outage probability (admin)");
  set->add_option("NODE", options.node, "node name")->required();
  set->add_option("P", options.probability, "probability in [0, 1]")->required();
  CLI::App* clear = app.add_subcommand("clear-outage", "drop a node's override (admin)");
  clear->add_option("NODE", options.node, "node name")->required();
  CLI::App* all = app.add_subcommand("all", "nodes, then graphs");
  CLI11_PARSE(app, argc, argv);

  try {
    const ClientContext context = connect(options);
    if (nodes->parsed() || all->parsed())
      std::fputs(tofactl::format_nodes(call_raw(context, "NODES")).c_str(), stdout);
    if (all->parsed()) std::fputs("\n", stdout);
    if (graphs->parsed() || all->parsed())
      std::fputs(tofactl::format_graphs(call_raw(context, "GRAPHS")).c_str(), stdout);
    if (job->parsed())
      std::fputs(tofactl::format_job(call_raw(context, format_message(
                                                           "JOB", {{"job", std::to_string(options.job)}})))
                     .c_str(),
                 stdout);
    if (links->parsed())
      std::fputs(tofactl::format_links(call_raw(context, format_message(
                                                             "LINKS", {{"top", std::to_string(options.top)}})))
                     .c_str(),
                 stdout);
    if (links->parsed() && !options.svg.empty()) write_links_svg(options, context);
    if (set->parsed()) {
      call_raw(context, format_message("SET_OUTAGE", {{"node", options.node}, {"p", options.probability}}));
      std::printf("outage probability of %s set to %s\n", options.node.c_str(),
                  options.probability.c_str());
    }
    if (clear->parsed()) {
      call_raw(context, format_message("CLEAR_OUTAGE", {{"node", options.node}}));
      std::printf("outage override of %s cleared\n", options.node.c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tofactl: %s\n", e.what());
    return 1;
  }
  return 0;
}
