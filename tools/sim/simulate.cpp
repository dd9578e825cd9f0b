// One smpirun of an application with a placement.
#include "simulate.hpp"

#include <chrono>
#include <sstream>

#include "base/error.hpp"
#include "hostfile.hpp"
#include "smpi_run.hpp"

namespace tofa::sim {

std::vector<std::string> simulation_settings(const AppSpec& app, bool crosstraffic,
                                             const std::vector<std::string>& extra) {
  std::vector<std::string> settings = {
      "smpi/simulate-computation:no",
      std::string("network/crosstraffic:") + (crosstraffic ? "1" : "0")};
  for (const std::string& setting : app_settings(app)) settings.push_back(setting);
  settings.insert(settings.end(), extra.begin(), extra.end());
  return settings;
}

SimulationResult simulate(const Simulation& simulation, const std::vector<int>& placement) {
  SmpiCommand command;
  command.smpirun = simulation.smpirun;
  command.platform = simulation.platform;
  command.hostfile = simulation.work_dir + "/" + simulation.hostfile_name;
  write_smpi_hostfile(command.hostfile, placement);
  command.ranks = static_cast<int>(placement.size());
  command.cfg = simulation_settings(simulation.app, simulation.crosstraffic, simulation.cfg);
  command.app = simulation.program;
  command.args = app_arguments(simulation.app);
  command.work_dir = simulation.work_dir;
  command.show_progress = simulation.show_progress;

  const auto start = std::chrono::steady_clock::now();
  const SmpiOutcome outcome = run_smpi(command);
  SimulationResult result;
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.output = outcome.output;
  const std::string prefix = result_prefix(simulation.app.kind);
  try {
    if (outcome.exit_status != 0)
      throw Error("smpirun failed with exit status " + std::to_string(outcome.exit_status));
    result.time = output_value(outcome.output, prefix, "time");
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + "; smpirun's output:\n" + outcome.output);
  }
  std::istringstream lines(outcome.output);
  for (std::string line; std::getline(lines, line);)
    if (line.compare(0, prefix.size(), prefix) == 0) {
      result.line = line;
      break;
    }
  return result;
}

}  // namespace tofa::sim
