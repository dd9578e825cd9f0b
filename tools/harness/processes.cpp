#include "harness/processes.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "base/error.hpp"
#include "net/hmac.hpp"
#include "net/munge_codec.hpp"

namespace tofa::harness {
namespace {

bool exists(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0;
}

pid_t spawn(const std::string& program, const std::vector<std::string>& args,
            const std::string& output = "") {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    if (!output.empty()) {
      const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (fd >= 0) {
        ::dup2(fd, STDOUT_FILENO);
        ::dup2(fd, STDERR_FILENO);
      }
    }
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace

pid_t spawn_self(const std::vector<std::string>& args) { return spawn("/proc/self/exe", args); }

void wait_for_file(const std::string& path, double seconds, pid_t child, const std::string& what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!exists(path)) {
    int status = 0;
    if (child > 0 && ::waitpid(child, &status, WNOHANG) == child)
      throw Error(what + " exited before it was ready (status " + std::to_string(status) + ")");
    if (std::chrono::steady_clock::now() > deadline)
      throw Error(what + " not ready after " + std::to_string(static_cast<int>(seconds)) + " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

void stop_child(pid_t child, double grace) {
  if (child <= 0) return;
  ::kill(child, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(grace);
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void touch(const std::string& path) { std::ofstream(path).put('\n'); }

double process_cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!std::getline(in, text)) return 0;
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14) utime = std::stoull(field);
    if (i == 15) stime = std::stoull(field);
  }
  return static_cast<double>(utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

Munged::Munged(const std::string& dir) : dir_(dir), socket_(dir + "/munge.socket.2") {
  ::mkdir(dir.c_str(), 0755);
  ::chmod(dir.c_str(), 0755);
  const passwd* munge = ::getpwnam("munge");
  const std::string key = dir + "/munge.key";
  {
    std::ofstream out(key, std::ios::binary);
    out << net::random_bytes(1024);
    if (!out) throw Error("cannot write " + key);
  }
  ::chmod(key.c_str(), 0600);
  if (munge && (::chown(dir.c_str(), munge->pw_uid, munge->pw_gid) != 0 ||
                ::chown(key.c_str(), munge->pw_uid, munge->pw_gid) != 0))
    throw Error("cannot give " + dir + " to the munge user: " + std::strerror(errno));
  std::vector<std::string> args = {"--foreground", "--socket=" + socket_, "--key-file=" + key,
                                   "--pid-file=" + dir + "/munged.pid",
                                   "--log-file=" + dir + "/munged.log",
                                   "--seed-file=" + dir + "/munged.seed", "--num-threads=4"};
  if (munge) {
    args.insert(args.begin(), {"runuser", "-u", "munge", "--", "/usr/sbin/munged"});
    pid_ = spawn("/usr/sbin/runuser", args, dir + "/munged.out");
  } else {
    args.insert(args.begin(), {"munged", "--force"});
    pid_ = spawn("/usr/sbin/munged", args, dir + "/munged.out");
  }
  net::MungeCodec codec(socket_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  for (;;) {
    try {
      codec.decode(codec.encode("ping"));
      return;
    } catch (const std::exception& e) {
      if (std::chrono::steady_clock::now() > deadline)
        throw Error("munged does not answer on " + socket_ + " (" + e.what() + "); see " + dir +
                    "/munged.log");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

Munged::~Munged() {
  std::ifstream in(dir_ + "/munged.pid");
  pid_t daemon = 0;
  if (in >> daemon && daemon > 0) ::kill(daemon, SIGTERM);  // runuser's child
  stop_child(pid_);
}

double Munged::cpu_seconds() const {
  std::ifstream in(dir_ + "/munged.pid");
  pid_t pid = 0;
  in >> pid;
  return pid > 0 ? process_cpu_seconds(pid) : 0;
}

}  // namespace tofa::harness
