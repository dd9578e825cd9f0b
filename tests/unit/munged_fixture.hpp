// Private munged daemons for tests that need real munge credentials. Each
// one has its own key, socket, log and pid file in a temporary directory and
// is started on first use and stopped when the test binary exits; nothing
// depends on running as root.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace tofa_test {

inline std::string sbin(const std::string& tool) {
  std::string path = "/usr/sbin/" + tool;
  return access(path.c_str(), X_OK) == 0 ? path : tool;
}

/// A munged with its own key, socket, log and pid file in a private directory.
class PrivateMunged {
 public:
  PrivateMunged() {
    char pattern[] = "/tmp/tofa-munge-XXXXXX";
    if (!mkdtemp(pattern)) return;
    dir_ = pattern;
    chmod(dir_.c_str(), 0755);  // munged wants clients able to reach the socket
    socket_ = dir_ + "/munge.socket";
    std::string key = dir_ + "/munge.key";
    std::string force = geteuid() == 0 ? " --force" : "";  // munged refuses root otherwise
    ok_ = std::system((sbin("mungekey") + " --create --keyfile=" + key).c_str()) == 0 &&
          std::system((sbin("munged") + force + " --socket=" + socket_ + " --key-file=" + key +
                       " --pid-file=" + dir_ + "/munged.pid --log-file=" + dir_ +
                       "/munged.log --seed-file=" + dir_ + "/munged.seed")
                          .c_str()) == 0;
  }
  ~PrivateMunged() {
    if (ok_) std::system((sbin("munged") + " --stop --socket=" + socket_ + " >/dev/null").c_str());
    if (!dir_.empty()) std::system(("rm -rf " + dir_).c_str());
  }
  PrivateMunged(const PrivateMunged&) = delete;
  PrivateMunged& operator=(const PrivateMunged&) = delete;
  bool ok() const { return ok_; }
  const std::string& socket() const { return socket_; }

 private:
  std::string dir_, socket_;
  bool ok_ = false;
};

/// The "cluster" munged every test of the binary shares.
inline PrivateMunged& cluster_munged() {
  static PrivateMunged munged;
  return munged;
}

/// A munged with a different key (its credentials are invalid for the cluster).
inline PrivateMunged& foreign_munged() {
  static PrivateMunged munged;
  return munged;
}

}  // namespace tofa_test
