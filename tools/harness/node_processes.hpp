// The two kinds of child process that stand for the cluster's nodes.
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>

#include "harness/cluster_files.hpp"
#include "harness/failure_model.hpp"

namespace tofa::harness {

/// "tofa-harness responders": one Responder (the library's, as inside
/// slurmd) answering for nodes [first, last) on one port, the failure model
/// deciding every answer. Runs until SIGTERM.
struct ResponderGroupArgs {
  std::string dir;  ///< the run's directory (ready files)
  int group = 0, first = 0, last = 0, port = 0, node_count = 0;
  std::string munge_socket;
  double freeze_round = 50;  ///< frozen responders stop answering from this round on
  FailureSpec failures;
};
int run_responder_group(const ResponderGroupArgs& args);

/// "tofa-harness slurmd -D -N NAME --dir DIR": the real tofa_nodestate.so
/// under the Slurm host module, as inside slurmd. Runs until SIGTERM.
int run_simulated_slurmd(const std::string& dir, const std::string& node);

/// Starts the responder groups and the simulated slurmds of `layout`, one
/// after the other, each ready (answering) before the next; their pids are
/// appended to `children` as they start.
void start_node_processes(const ClusterLayout& layout, const std::string& dir,
                          const std::string& munge_socket, const FailureSpec& failures,
                          double freeze_round, std::vector<pid_t>* children);

std::vector<std::string> responder_group_argv(const ResponderGroupArgs& args);
ResponderGroupArgs parse_responder_group_argv(const std::vector<std::string>& argv);

}  // namespace tofa::harness
