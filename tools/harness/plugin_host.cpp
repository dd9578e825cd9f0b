#include "harness/plugin_host.hpp"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

#include <cstdlib>
#include <sys/stat.h>

#include "base/error.hpp"

namespace tofa::harness {
namespace {

using ErrFn = int (*)(char*, std::size_t);

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

std::string self_directory() {
  char buffer[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  if (n <= 0) return ".";
  std::string path(buffer, static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/'));
}

}  // namespace

std::string build_tree_root() {
  // tools/harness/.libs/tofa-harness (libtool) or tools/harness/tofa-harness.
  std::string up = self_directory();
  for (int level = 0; level < 4 && up.size() > 1; ++level, up = up.substr(0, up.rfind('/')))
    if (exists(up + "/tools/harness/tofa_harness.cpp") || exists(up + "/config.status"))
      return up;
  return "";
}

PluginPaths find_plugin_paths() {
  PluginPaths paths;
  const char* host = std::getenv("TOFA_HARNESS_HOST");
  const char* dir = std::getenv("TOFA_PLUGIN_DIR");
  const std::string build = build_tree_root();
  paths.host = host ? host
               : !build.empty() ? build + "/plugins/harness/.libs/tofa_harness_host.so"
                                : std::string(TOFA_PLUGIN_INSTALL_DIR) + "/tofa_harness_host.so";
  paths.plugin_dir = dir ? dir : !build.empty() ? build + "/plugins/.libs" : TOFA_PLUGIN_INSTALL_DIR;
  return paths;
}

PluginHost::PluginHost(const std::string& host_path) {
  handle_ = ::dlopen(host_path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle_) {
    const char* why = ::dlerror();
    throw Error("cannot load the Slurm host module " + host_path + ": " + (why ? why : "?") +
                " (built with the plugins: configure --with-slurm-source)");
  }
}

template <typename F>
F PluginHost::symbol(const char* name) const {
  void* found = ::dlsym(handle_, name);
  if (!found) throw Error(std::string("the Slurm host module has no ") + name);
  return reinterpret_cast<F>(found);
}

void PluginHost::init(const std::string& slurm_conf, const std::string& log_path) {
  char err[4096];
  auto init = symbol<int (*)(const char*, const char*, int, char*, std::size_t)>("tofa_host_init");
  if (init(slurm_conf.c_str(), log_path.c_str(), 1, err, sizeof err) != 0) throw Error(err);
}

std::string PluginHost::slurm_version() const {
  return symbol<const char* (*)()>("tofa_host_slurm_version")();
}

std::string PluginHost::upload_matrix(const std::string& plugin, const std::string& matrix) const {
  char err[4096];
  char* id = nullptr;
  auto upload = symbol<int (*)(const char*, const char*, char**, char*, std::size_t)>(
      "tofa_host_upload_matrix");
  if (upload(plugin.c_str(), matrix.c_str(), &id, err, sizeof err) != 0) throw Error(err);
  std::string out = id ? id : "";
  std::free(id);
  return out;
}

void PluginHost::start_nodestate(const std::string& plugin) const {
  char err[4096];
  auto start = symbol<int (*)(const char*, char*, std::size_t)>("tofa_host_start_nodestate");
  if (start(plugin.c_str(), err, sizeof err) != 0) throw Error(err);
}

void PluginHost::stop_nodestate() const { symbol<void (*)()>("tofa_host_stop_nodestate")(); }

void PluginHost::start_ctld(const std::string& plugin) const {
  char err[4096];
  auto start = symbol<int (*)(const char*, char*, std::size_t)>("tofa_host_start_ctld");
  if (start(plugin.c_str(), err, sizeof err) != 0) throw Error(err);
}

void PluginHost::stop_ctld() const { symbol<void (*)()>("tofa_host_stop_ctld")(); }

}  // namespace tofa::harness
