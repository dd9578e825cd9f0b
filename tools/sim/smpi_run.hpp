// Running an SMPI application under smpirun and reading its output.
#pragma once

#include <string>
#include <vector>

namespace tofa::sim {

struct SmpiCommand {
  std::string smpirun = "smpirun";
  std::string platform;  ///< platform file
  std::string hostfile;  ///< smpirun machine file: line i = host of rank i
  int ranks = 0;
  std::vector<std::string> cfg;   ///< SimGrid settings "name:value" (passed as --cfg=...)
  std::string app;                ///< the application, built with smpicc
  std::vector<std::string> args;  ///< its arguments
  std::string work_dir;           ///< smpirun runs here (it may leave temporary files)
  bool show_progress = true;      ///< the elapsed time on a terminal (off for parallel runs)
};

struct SmpiOutcome {
  int exit_status = -1;  ///< smpirun's exit status; -1 when it died of a signal
  std::string output;    ///< stdout and stderr, interleaved
};

/// Runs the command, showing the elapsed time on a terminal unless asked
/// not to. Safe to call from several threads at once. Throws Error when
/// smpirun cannot be started.
SmpiOutcome run_smpi(const SmpiCommand& command);

/// Runs `args` (args[0] found on PATH) in `work_dir` (empty: here),
/// collecting stdout and stderr; `label` and the elapsed time are shown on a
/// terminal when `show_progress`. Throws Error when it cannot be started.
SmpiOutcome run_process(std::vector<std::string> args, const std::string& work_dir,
                        const std::string& label, bool show_progress);

/// The value of the first "KEY=NUMBER" word on a line of `output` starting
/// with `prefix`. Throws Error naming the prefix and key when there is none.
double output_value(const std::string& output, const std::string& prefix, const std::string& key);

}  // namespace tofa::sim
