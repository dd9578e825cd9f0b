// tofactl's defaults taken from the environment and slurm.conf.
#pragma once

#include <string>

namespace tofactl {

struct SlurmDefaults {
  std::string controller_address;  ///< SlurmctldHost=name(addr) -> addr, else name
  std::string munge_socket;        ///< AuthInfo=...socket=PATH...
};

/// $TOFA_CONF, else dirname($SLURM_CONF or /etc/slurm/slurm.conf) + "/tofa.conf".
std::string default_tofa_conf(const char* tofa_conf_env, const char* slurm_conf_env);
/// $SLURM_CONF or /etc/slurm/slurm.conf.
std::string default_slurm_conf(const char* slurm_conf_env);

/// Reads the first SlurmctldHost and AuthInfo of a slurm.conf (keys are
/// case-insensitive, '#' comments). A missing file gives empty defaults.
SlurmDefaults read_slurm_defaults(const std::string& path);

}  // namespace tofactl
