// tofa_harness_host.so (plugins/harness) seen from the Slurm-independent
// tool: loaded RTLD_GLOBAL before any plugin object, so that the plugins'
// spank_* and lock_slurmctld references bind to it.
#pragma once

#include <string>

namespace tofa::harness {

/// The build tree tofa-harness runs from, "" when installed.
std::string build_tree_root();

/// Where the host module and the plugin objects are: $TOFA_HARNESS_HOST and
/// $TOFA_PLUGIN_DIR, else the build tree tofa-harness runs from, else the
/// installed plugin directory.
struct PluginPaths {
  std::string host;
  std::string plugin_dir;
  std::string plugin(const std::string& name) const { return plugin_dir + "/" + name + ".so"; }
};
PluginPaths find_plugin_paths();

class PluginHost {
 public:
  /// Loads the module; throws Error naming the file and dlerror().
  explicit PluginHost(const std::string& host_path);
  /// slurm.conf through libslurmfull (forks once: call before threads start).
  void init(const std::string& slurm_conf, const std::string& log_path);
  std::string slurm_version() const;
  /// One srun --tofa-matrix=FILE through tofa_loadmatrix.so; the graph id.
  std::string upload_matrix(const std::string& plugin, const std::string& matrix) const;
  /// tofa_nodestate.so in this process (its command line carries -D -N NAME).
  void start_nodestate(const std::string& plugin) const;
  void stop_nodestate() const;
  /// slurmctld_tofa.so's init(): it starts the TOFA service in this process.
  void start_ctld(const std::string& plugin) const;
  void stop_ctld() const;

 private:
  template <typename F>
  F symbol(const char* name) const;
  void* handle_ = nullptr;
};

}  // namespace tofa::harness
