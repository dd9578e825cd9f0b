// Private munged daemons for tests that need real munge credentials. Each
// one has its own key, socket, log and pid file in a temporary directory and
// is started on first use and stopped when the test binary exits. munged
// runs in the foreground as a child that the kernel stops when the test
// binary dies, so a crashed test leaves no daemon behind; nothing depends on
// running as root.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
    const std::string key = dir_ + "/munge.key";
    if (std::system((sbin("mungekey") + " --create --keyfile=" + key).c_str()) != 0) return;
    const std::string munged = sbin("munged");
    const std::string args[] = {"--foreground", "--socket=" + socket_, "--key-file=" + key,
                                "--pid-file=" + dir_ + "/munged.pid",
                                "--log-file=" + dir_ + "/munged.log",
                                "--seed-file=" + dir_ + "/munged.seed"};
    pid_ = fork();
    if (pid_ == 0) {
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      const int quiet = open("/dev/null", O_WRONLY);  // it logs to --log-file too
      if (quiet >= 0) {
        dup2(quiet, 1);
        dup2(quiet, 2);
      }
      const char* argv[9] = {munged.c_str()};
      int n = 1;
      if (geteuid() == 0) argv[n++] = "--force";  // munged refuses root otherwise
      for (const std::string& arg : args) argv[n++] = arg.c_str();
      argv[n] = nullptr;
      execv(munged.c_str(), const_cast<char* const*>(argv));
      _exit(127);
    }
    // Ready once the socket exists (up to 10 s).
    for (int tries = 0; pid_ > 0 && tries < 1000 && !ok_; ++tries) {
      ok_ = access(socket_.c_str(), F_OK) == 0;
      if (!ok_) usleep(10000);
    }
  }
  ~PrivateMunged() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
    if (!dir_.empty()) std::system(("rm -rf " + dir_).c_str());
  }
  PrivateMunged(const PrivateMunged&) = delete;
  PrivateMunged& operator=(const PrivateMunged&) = delete;
  bool ok() const { return ok_; }
  const std::string& socket() const { return socket_; }

 private:
  std::string dir_, socket_;
  pid_t pid_ = -1;
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
