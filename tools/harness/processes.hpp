// tofa-harness's own processes: children running a subcommand of this
// binary (responder groups, simulated slurmds), and a private munged.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace tofa::harness {

/// Runs this program again with `args` (argv[0] included); the child dies
/// with the parent. Throws Error when fork fails.
pid_t spawn_self(const std::vector<std::string>& args);

/// Waits until `path` exists or `seconds` pass, or `child` exits (then
/// throws Error naming `what`).
void wait_for_file(const std::string& path, double seconds, pid_t child, const std::string& what);

/// SIGTERM, then SIGKILL after `grace` seconds; reaps the child.
void stop_child(pid_t child, double grace = 3);

/// Creates the file (the child's "I am ready").
void touch(const std::string& path);

class Munged {
 public:
  /// Starts munged with its own key, socket, pid and log under `dir` (as the
  /// munge user when it exists). Throws Error when it does not answer.
  explicit Munged(const std::string& dir);
  ~Munged();
  Munged(const Munged&) = delete;
  Munged& operator=(const Munged&) = delete;
  const std::string& socket() const { return socket_; }
  pid_t pid() const { return pid_; }
  /// CPU seconds munged has used so far (user + system).
  double cpu_seconds() const;

 private:
  std::string dir_, socket_;
  pid_t pid_ = -1;
};

/// CPU seconds (user + system) of a process from /proc/PID/stat, 0 if gone.
double process_cpu_seconds(pid_t pid);

}  // namespace tofa::harness
