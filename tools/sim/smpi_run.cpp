// smpirun as a child process, its output collected through a pipe.
#include "smpi_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "base/error.hpp"
#include "progress.hpp"

namespace tofa::sim {

SmpiOutcome run_smpi(const SmpiCommand& command) {
  std::vector<std::string> args = {command.smpirun,
                                   "-np",
                                   std::to_string(command.ranks),
                                   "-platform",
                                   command.platform,
                                   "-hostfile",
                                   command.hostfile};
  for (const std::string& setting : command.cfg) args.push_back("--cfg=" + setting);
  args.push_back(command.app);
  args.insert(args.end(), command.args.begin(), command.args.end());
  return run_process(args, command.work_dir, "smpirun " + std::to_string(command.ranks) + " ranks",
                     command.show_progress);
}

SmpiOutcome run_process(std::vector<std::string> args, const std::string& work_dir,
                        const std::string& label, bool show_progress) {
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  // Close-on-exec: a child started by another thread must not keep this
  // pipe's write end open, or the read below would wait for that child too.
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
  const pid_t child = fork();
  if (child < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    close(fds[0]);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[1]);
    if (!work_dir.empty() && chdir(work_dir.c_str()) != 0) _exit(126);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "tofa-sim: cannot run %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  close(fds[1]);

  SmpiOutcome outcome;
  Progress progress(label, 0, show_progress);
  pollfd poll_fd{fds[0], POLLIN, 0};
  while (true) {
    progress.update(0);
    const int ready = poll(&poll_fd, 1, 100);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;
    char buffer[8192];
    const ssize_t n = read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    outcome.output.append(buffer, n);
  }
  close(fds[0]);
  progress.finish();
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  outcome.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

double output_value(const std::string& output, const std::string& prefix, const std::string& key) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.compare(0, prefix.size(), prefix) != 0) continue;
    std::istringstream words(line.substr(prefix.size()));
    for (std::string word; words >> word;) {
      if (word.compare(0, key.size() + 1, key + "=") != 0) continue;
      char* end = nullptr;
      const double value = std::strtod(word.c_str() + key.size() + 1, &end);
      if (end != word.c_str() + key.size() + 1 && *end == '\0') return value;
    }
  }
  throw Error("no '" + key + "=' on a line starting with '" + prefix + "' in the output");
}

}  // namespace tofa::sim
