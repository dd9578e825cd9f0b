// tofa-rubik: run a Rubik spec (seed Bhatele et al.) and write the layout of
// its output tree as a Rubik map file, MPICH_RANK_ORDER and/or SLURM_HOSTFILE.
//
//   tofa-rubik --spec pf3d.rubik --map-file map.txt
//   tofa-rubik --spec pf3d.rubik --topology torus:8x8x8:cores=4
//              --mpich-rank-order MPICH_RANK_ORDER --hostfile hosts
//
// Without an output option the map file goes to standard output; "-" as a
// file name also means standard output.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>

#include "base/error.hpp"
#include "graph/generators.hpp"
#include "map/mapper.hpp"
#include "map/rubik/rubik.hpp"
#include "metrics/metrics.hpp"

namespace {

struct Options {
  std::string spec;
  std::string map_file;
  std::string mpich_rank_order;
  std::string hostfile;
  std::string topology;
  int slots = 0;
};

void write_to(const std::string& path, const std::function<void(std::ostream&)>& write) {
  if (path == "-") {
    write(std::cout);
    return;
  }
  std::ofstream out(path);
  if (!out) throw tofa::Error("cannot write '" + path + "'");
  write(out);
  if (!out) throw tofa::Error("cannot write '" + path + "'");
}

int run(const Options& options) {
  const tofa::rubik::Spec spec = tofa::rubik::read_spec(options.spec);
  const tofa::rubik::Tree& network = spec.output_tree();
  const bool has_topology = !options.topology.empty();
  std::unique_ptr<tofa::Topology> topology;
  int slots = options.slots;
  if (has_topology) {
    topology = std::make_unique<tofa::Topology>(tofa::load_topology(options.topology));
    if (slots <= 0) slots = topology->cores_per_node();
  }
  const bool any_output = !options.map_file.empty() || !options.mpich_rank_order.empty() ||
                          !options.hostfile.empty();
  if (!options.map_file.empty() || !any_output) {
    write_to(options.map_file.empty() ? "-" : options.map_file,
             [&](std::ostream& out) { tofa::rubik::write_map_file(out, network); });
  }
  if (!options.mpich_rank_order.empty()) {
    write_to(options.mpich_rank_order, [&](std::ostream& out) {
      if (has_topology) tofa::rubik::write_mpich_rank_order(out, network, *topology, slots);
      else tofa::rubik::write_mpich_rank_order(out, network);
    });
  }
  if (!options.hostfile.empty()) {
    const tofa::Placement placement = tofa::rubik::placement_on(network, *topology, slots);
    write_to(options.hostfile,
             [&](std::ostream& out) { tofa::rubik::write_hostfile(out, placement, *topology); });
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tofa-rubik: Rubik partition-tree layouts (box, div, tile, mod, cut, map, tilt, "
               "zigzag, zorder) written for MPI launchers"};
  Options options;
  app.add_option("--spec", options.spec, "Rubik spec file (one operation per line)")
      ->required();
  app.add_option("--map-file", options.map_file,
                 "write the map file: line r = coordinates of rank r (default: stdout)");
  app.add_option("--mpich-rank-order", options.mpich_rank_order,
                 "write Cray MPICH_RANK_ORDER (ranks in slot-filling order)");
  auto* topology = app.add_option("--topology", options.topology,
                                  "FILE|torus:AxB[:cores=N]: the machine the network box covers");
  app.add_option("--hostfile", options.hostfile, "write SLURM_HOSTFILE: line i = node of rank i")
      ->needs(topology);
  app.add_option("--slots", options.slots, "ranks per node (default: the topology's cores)")
      ->check(CLI::Range(0, 1 << 20));
  CLI11_PARSE(app, argc, argv);
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tofa-rubik: %s\n", error.what());
    return 1;
  }
}
