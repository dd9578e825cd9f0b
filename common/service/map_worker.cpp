#include "service/map_worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>

#include "net/socket_io.hpp"
#include "service/map_job_codec.hpp"
#include "tofa/error.hpp"

namespace tofa::service {
namespace {

// Exit codes of the worker besides 0; its message travels on the socket.
constexpr int kExitError = 2;
constexpr int kExitOutOfMemory = 3;

/// Reads until end of file or `max` bytes; throws Error on timeout or error.
std::string read_to_end(int fd, std::size_t max, const net::Deadline* deadline) {
  std::string data;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      data.append(buffer, static_cast<std::size_t>(n));
      if (data.size() > max) throw Error("answer longer than " + std::to_string(max) + " bytes");
    } else if (n == 0) {
      return data;
    } else if (errno == EAGAIN && deadline) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, deadline->remaining_ms()) == 0) throw Error("timed out");
    } else if (errno != EINTR) {
      throw Error(std::strerror(errno));
    }
  }
}

class Spawned {
 public:
  Spawned(const MapWorkerLimits& limits, int child_fd) {
    const std::string memory = std::to_string(limits.memory_mb);
    const std::string cpu = std::to_string(static_cast<long long>(std::ceil(limits.seconds)));
    const char* argv[] = {limits.program.c_str(), "--memory-mb", memory.c_str(),
                          "--cpu-seconds", cpu.c_str(), nullptr};
    const char* envp[] = {"PATH=/usr/bin:/bin", nullptr};

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, child_fd, 0);
    posix_spawn_file_actions_adddup2(&actions, child_fd, 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    // slurmctld's threads block signals and may ignore some: the worker
    // starts with none blocked and every disposition at its default.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const int rc = ::posix_spawn(&pid_, limits.program.c_str(), &actions, &attr,
                                 const_cast<char* const*>(argv), const_cast<char* const*>(envp));
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0)
      throw Error("cannot start the mapping worker " + limits.program + ": " + std::strerror(rc));
  }
  ~Spawned() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  Spawned(const Spawned&) = delete;
  Spawned& operator=(const Spawned&) = delete;

  void kill() { ::kill(pid_, SIGKILL); }

  /// The wait status; -1 when unknown (SIGCHLD ignored: the kernel reaped it).
  int wait() {
    int status = 0;
    pid_t done;
    do done = ::waitpid(pid_, &status, 0); while (done < 0 && errno == EINTR);
    pid_ = -1;
    return done < 0 ? -1 : status;
  }

 private:
  pid_t pid_ = -1;
};

std::string describe_failure(int status, bool timed_out, const MapWorkerLimits& limits) {
  if (timed_out || (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU))
    return "mapping worker exceeded its time limit of " + std::to_string(limits.seconds) +
           " s (MapTimeLimit in tofa.conf)";
  if (WIFEXITED(status) && WEXITSTATUS(status) == kExitOutOfMemory)
    return "mapping worker ran out of memory (limit " + std::to_string(limits.memory_mb) +
           " MB, MapMemoryLimit in tofa.conf)";
  if (WIFSIGNALED(status))
    return "mapping worker crashed (signal " + std::to_string(WTERMSIG(status)) + ", " +
           strsignal(WTERMSIG(status)) + ")";
  return "mapping worker failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
}

}  // namespace

Placement map_in_worker(const MappingRequest& request, const std::string& strategy,
                        const MapWorkerLimits& limits) {
  const std::string job = encode_map_job(request, strategy);
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) < 0)
    throw Error(std::string("socketpair: ") + std::strerror(errno));
  net::Fd parent(ends[0]);
  net::Fd child(ends[1]);
  ::fcntl(parent.get(), F_SETFL, ::fcntl(parent.get(), F_GETFL) | O_NONBLOCK);

  Spawned worker(limits, child.get());
  child.reset();
  // A little more than the CPU limit: the kernel's SIGXCPU comes first when
  // the worker computes, this deadline when it is stuck without computing.
  const net::Deadline deadline(
      std::chrono::milliseconds(static_cast<long long>(limits.seconds * 1000) + 2000));
  std::string answer;
  bool timed_out = false;
  std::string io_error;
  try {
    net::write_all(parent.get(), job, deadline, -1, "sending the mapping job");
    ::shutdown(parent.get(), SHUT_WR);
    const std::size_t max_answer = 64 + 4 * static_cast<std::size_t>(request.graph->task_count()) + 4096;
    answer = read_to_end(parent.get(), max_answer, &deadline);
  } catch (const Error& e) {
    io_error = e.what();
    timed_out = deadline.remaining_ms() == 0;
    worker.kill();
  }
  const int status = worker.wait();
  if (!io_error.empty()) {
    if (status == -1) throw Error("mapping worker: " + io_error);
    throw Error(describe_failure(status, timed_out, limits));
  }
  const bool answered = status == -1 || (WIFEXITED(status) && (WEXITSTATUS(status) == 0 ||
                                                               WEXITSTATUS(status) == kExitError));
  if (!answered) throw Error(describe_failure(status, false, limits));
  return decode_map_result(answer, request.graph->task_count());
}

int serve_map_job(int in_fd, int out_fd) {
  std::string result;
  int code = 0;
  try {
    const std::unique_ptr<MapJob> job = decode_map_job(read_to_end(in_fd, ~std::size_t{0}, nullptr));
    const Placement placement = make_mapper(job->strategy)->map(job->request);
    check_placement(job->request, placement);
    result = encode_map_result(placement);
  } catch (const std::bad_alloc&) {
    result = encode_map_error("out of memory");
    code = kExitOutOfMemory;
  } catch (const std::exception& e) {
    result = encode_map_error(e.what());
    code = kExitError;
  }
  try {
    net::write_all(out_fd, result, net::Deadline(std::chrono::seconds(10)), -1, "answer");
  } catch (const std::exception&) {
    return kExitError;
  }
  return code;
}

}  // namespace tofa::service
