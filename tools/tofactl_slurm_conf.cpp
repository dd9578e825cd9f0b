#include "tofactl_slurm_conf.hpp"

#include <cctype>
#include <fstream>
#include <sstream>

namespace tofactl {
namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::string default_slurm_conf(const char* slurm_conf_env) {
  return slurm_conf_env && *slurm_conf_env ? slurm_conf_env : "/etc/slurm/slurm.conf";
}

std::string default_tofa_conf(const char* tofa_conf_env, const char* slurm_conf_env) {
  if (tofa_conf_env && *tofa_conf_env) return tofa_conf_env;
  const std::string slurm = default_slurm_conf(slurm_conf_env);
  const std::size_t slash = slurm.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slurm.substr(0, slash);
  return (dir.empty() ? "" : dir) + "/tofa.conf";
}

SlurmDefaults read_slurm_defaults(const std::string& path) {
  SlurmDefaults defaults;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    const std::size_t comment = line.find('#');
    if (comment != std::string::npos) line.erase(comment);
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      const std::size_t equals = word.find('=');
      if (equals == std::string::npos) continue;
      const std::string key = lower(word.substr(0, equals));
      const std::string value = word.substr(equals + 1);
      if ((key == "slurmctldhost" || key == "controlmachine") &&
          defaults.controller_address.empty()) {
        const std::size_t open = value.find('(');
        const std::size_t close = value.find(')', open);
        defaults.controller_address = open != std::string::npos && close != std::string::npos
                                          ? value.substr(open + 1, close - open - 1)
                                          : value;
      } else if (key == "authinfo" && defaults.munge_socket.empty()) {
        std::istringstream parts(value);
        for (std::string part; std::getline(parts, part, ',');)
          if (lower(part.substr(0, 7)) == "socket=") defaults.munge_socket = part.substr(7);
      }
    }
  }
  return defaults;
}

}  // namespace tofactl
