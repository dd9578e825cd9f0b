// A directory for a run's files: kept where the user asked, or temporary.
#pragma once

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "base/error.hpp"

namespace tofa::sim {

/// `keep` (created if needed, left in place) or a fresh temporary directory,
/// removed with its files on destruction. The path is absolute: smpirun runs
/// inside it and must still find the files named by it.
class WorkDir {
 public:
  explicit WorkDir(const std::string& keep) : path_(keep), remove_(keep.empty()) {
    if (remove_) {
      const char* base = std::getenv("TMPDIR");
      std::string pattern = std::string(base && *base ? base : "/tmp") + "/tofa-sim.XXXXXX";
      if (mkdtemp(pattern.data()) == nullptr)
        throw Error("cannot create a temporary directory in " + pattern);
      path_ = pattern;
    } else if (mkdir(path_.c_str(), 0777) != 0 && errno != EEXIST) {
      throw Error("--keep: cannot create '" + path_ + "': " + std::strerror(errno));
    } else if (access(path_.c_str(), W_OK) != 0) {
      throw Error("--keep: '" + path_ + "' is not a writable directory");
    }
    if (char* absolute = realpath(path_.c_str(), nullptr)) {
      path_ = absolute;
      std::free(absolute);
    }
  }
  ~WorkDir() {
    if (!remove_) return;
    for (const std::string& file : files_) unlink((path_ + "/" + file).c_str());
    rmdir(path_.c_str());
  }
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;

  /// Path of a file of the directory, removed with it.
  std::string file(const std::string& name) {
    files_.push_back(name);
    return path_ + "/" + name;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool remove_;
  std::vector<std::string> files_;
};

}  // namespace tofa::sim
