// One simulated run of an application with a placement: the machine file,
// smpirun, and the simulated time the application reports.
#pragma once

#include <string>
#include <vector>

#include "app_spec.hpp"

namespace tofa::sim {

struct Simulation {
  AppSpec app;
  std::string program;  ///< the application's executable (find_app)
  std::string smpirun = "smpirun";
  std::string platform;          ///< platform file, written beforehand
  std::vector<std::string> cfg;  ///< extra SimGrid settings NAME:VALUE
  bool crosstraffic = true;      ///< network/crosstraffic (SimGrid's default)
  std::string work_dir;          ///< smpirun runs here; the machine file goes here
  std::string hostfile_name = "hosts";
  bool show_progress = true;  ///< smpirun's elapsed time on a terminal
};

struct SimulationResult {
  double time = 0;     ///< simulated seconds (the application's time=)
  std::string line;    ///< the application's result line
  std::string output;  ///< smpirun's whole output
  double wall_seconds = 0;
};

/// The SimGrid settings every run gets: the host's own computing time does
/// not count (smpi/simulate-computation:no), cross-traffic as asked, then
/// the application's (app_settings) and `extra`.
std::vector<std::string> simulation_settings(const AppSpec& app, bool crosstraffic,
                                             const std::vector<std::string>& extra);

/// Runs the application on `placement` (rank i on node placement[i]).
/// Throws Error with smpirun's output when it fails or prints no time.
SimulationResult simulate(const Simulation& simulation, const std::vector<int>& placement);

}  // namespace tofa::sim
