#include "service/map_worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "net/socket_io.hpp"
#include "service/map_job_codec.hpp"

namespace tofa::service {
namespace {

constexpr std::size_t kMaxIdleWorkers = 2;
constexpr int kExitUnexpected = 2;
constexpr int kExitOutOfMemory = 3;

/// Thrown by the frame helpers when the peer closed the stream cleanly
/// before a new frame.
struct EndOfInput {};

/// Reads exactly `size` bytes; with a deadline the descriptor is non-blocking.
void read_bytes(int fd, char* out, std::size_t size, const net::Deadline* deadline,
                bool at_frame_start) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::read(fd, out + done, size - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n == 0) {
      if (done == 0 && at_frame_start) throw EndOfInput{};
      throw Error("connection closed");
    } else if (errno == EAGAIN && deadline) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, deadline->remaining_ms()) == 0) throw Error("timed out");
    } else if (errno != EINTR) {
      throw Error(std::strerror(errno));
    }
  }
}

/// One frame: its length as 8 bytes, then its bytes.
std::string read_frame(int fd, std::size_t max, const net::Deadline* deadline) {
  std::uint64_t size = 0;
  read_bytes(fd, reinterpret_cast<char*>(&size), sizeof size, deadline, true);
  if (size > max) throw Error("frame of " + std::to_string(size) + " bytes is too long");
  std::string payload(size, '\0');
  if (size > 0) read_bytes(fd, &payload[0], size, deadline, false);
  return payload;
}

void write_frame(int fd, const std::string& payload, const net::Deadline& deadline) {
  const std::uint64_t size = payload.size();
  net::write_all(fd, std::string(reinterpret_cast<const char*>(&size), sizeof size) + payload,
                 deadline, -1, "mapping worker");
}

std::string whole_seconds(double seconds) {
  return std::to_string(static_cast<long long>(std::ceil(seconds)));
}

std::string out_of_memory(const MapWorkerLimits& limits) {
  return "mapping worker ran out of memory (limit " + std::to_string(limits.memory_mb) +
         " MB, MapMemoryLimit in tofa.conf)";
}

std::string describe_exit(int status) {
  if (WIFSIGNALED(status))
    return "mapping worker crashed (signal " + std::to_string(WTERMSIG(status)) + ", " +
           strsignal(WTERMSIG(status)) + ")";
  return "mapping worker exited with status " + std::to_string(WEXITSTATUS(status)) +
         " before answering";
}

/// The calling thread's scheduling policy and nice value (Linux: both are
/// per thread, and a child process starts with its spawning thread's).
std::pair<int, int> thread_priority() {
  const auto thread = static_cast<pid_t>(syscall(SYS_gettid));
  return {sched_getscheduler(thread), getpriority(PRIO_PROCESS, static_cast<id_t>(thread))};
}

/// One tofa-map-worker process and the socket to it.
class WorkerProcess {
 public:
  explicit WorkerProcess(const MapWorkerLimits& limits) : limits_(limits), priority_(thread_priority()) {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) < 0)
      throw MapWorkerFailure(std::string("socketpair: ") + std::strerror(errno));
    socket_ = net::Fd(ends[0]);
    net::Fd child(ends[1]);
    ::fcntl(socket_.get(), F_SETFL, ::fcntl(socket_.get(), F_GETFL) | O_NONBLOCK);
    spawn(child.get());
  }
  ~WorkerProcess() {
    socket_.reset();  // an idle worker exits at end of input
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      reap();
    }
  }
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  /// An idle worker writes nothing: a readable or hung-up socket means it
  /// is gone (killed by the kernel's OOM killer, say).
  bool still_idle() const {
    pollfd p{socket_.get(), POLLIN, 0};
    return ::poll(&p, 1, 0) == 0;
  }

  /// Same limits, and the policy and nice value the worker inherited are
  /// the calling thread's: a worker spawned by slurmctld's own threads must
  /// not run the mapping threads' work (lower_this_thread) ahead of the
  /// scheduler, nor the other way round.
  bool serves(const MapWorkerLimits& limits) const {
    return limits.program == limits_.program && limits.memory_mb == limits_.memory_mb &&
           limits.seconds == limits_.seconds && priority_ == thread_priority();
  }

  /// The job's bytes, without the link cost table when the worker kept it.
  std::string job_for(const MappingRequest& request, const std::string& strategy,
                      const LinkCostPatch& own_links) const {
    const auto& table = request.fault_cost.link_extra;
    return encode_map_job(request, strategy, own_links, table && kept_link_costs_.lock() == table);
  }
  /// After the answer to job_for's job: an "OK" means the worker decoded it
  /// and keeps its table; an error may have come before.
  void answered(const MappingRequest& request, bool ok) {
    if (!ok) kept_link_costs_.reset();
    else if (request.fault_cost.link_extra) kept_link_costs_ = request.fault_cost.link_extra;
  }

  /// Sends a job and returns the answer; throws MapWorkerFailure after
  /// killing the worker when anything goes wrong.
  std::string exchange(const std::string& job, std::size_t max_answer) {
    // A little more than the CPU limit: the kernel's SIGXCPU comes first when
    // the worker computes, this deadline when it is stuck without computing.
    const net::Deadline deadline(
        std::chrono::milliseconds(static_cast<long long>(limits_.seconds * 1000) + 2000));
    try {
      write_frame(socket_.get(), job, deadline);
      return read_frame(socket_.get(), max_answer, &deadline);
    } catch (const EndOfInput&) {
      throw MapWorkerFailure(failure("no answer", false));
    } catch (const Error& e) {
      timed_out_ = deadline.remaining_ms() == 0;
      throw MapWorkerFailure(failure(e.what(), timed_out_));
    }
  }

  bool timed_out() const { return timed_out_; }

 private:
  void spawn(int child_fd) {
    const std::string memory = std::to_string(limits_.memory_mb);
    const std::string cpu = whole_seconds(limits_.seconds);
    const char* argv[] = {limits_.program.c_str(), "--memory-mb", memory.c_str(),
                          "--cpu-seconds", cpu.c_str(), nullptr};
    // The worker needs the libraries its parent found, nothing else.
    const char* library_path = std::getenv("LD_LIBRARY_PATH");
    const std::string library_setting =
        "LD_LIBRARY_PATH=" + std::string(library_path ? library_path : "");
    const char* envp[] = {"PATH=/usr/bin:/bin", library_path ? library_setting.c_str() : nullptr,
                          nullptr};
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
    const int rc = ::posix_spawn(&pid_, limits_.program.c_str(), &actions, &attr,
                                 const_cast<char* const*>(argv), const_cast<char* const*>(envp));
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
      pid_ = -1;
      throw MapWorkerFailure("cannot start the mapping worker " + limits_.program + ": " +
                             std::strerror(rc));
    }
  }

  /// The wait status; -1 when unknown (SIGCHLD ignored: the kernel reaped it).
  int reap() {
    int status = 0;
    pid_t done;
    do done = ::waitpid(pid_, &status, 0); while (done < 0 && errno == EINTR);
    pid_ = -1;
    return done < 0 ? -1 : status;
  }

  std::string failure(const std::string& io_error, bool timed_out) {
    ::kill(pid_, SIGKILL);  // harmless when it is already gone
    const int status = reap();
    if (timed_out || (status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU))
      return "mapping worker exceeded its time limit of " + whole_seconds(limits_.seconds) +
             " s (MapTimeLimit in tofa.conf)";
    if (status == -1 || (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
      return "mapping worker: " + io_error;
    if (WIFEXITED(status) && WEXITSTATUS(status) == kExitOutOfMemory) return out_of_memory(limits_);
    return describe_exit(status);
  }

  MapWorkerLimits limits_;
  std::weak_ptr<const std::vector<double>> kept_link_costs_;  ///< KeptLinkCosts, as sent
  const std::pair<int, int> priority_;  ///< the spawning thread's, which the worker inherited
  net::Fd socket_;
  pid_t pid_ = -1;
  bool timed_out_ = false;
};

// Never destroyed: the service may stop from exit handlers (Slurm 24.11 and
// 26.05 exit without calling the topology plugin's fini), after function-local
// statics are gone; a destroyed pool there took slurmctld down at shutdown.
std::mutex& idle_mutex() {
  static auto* mutex = new std::mutex;
  return *mutex;
}

std::vector<std::unique_ptr<WorkerProcess>>& idle_workers() {
  static auto* workers = new std::vector<std::unique_ptr<WorkerProcess>>;
  return *workers;
}

/// An idle worker of these limits (*reused true), or a new one.
std::unique_ptr<WorkerProcess> take_worker(const MapWorkerLimits& limits, bool* reused) {
  *reused = false;
  std::vector<std::unique_ptr<WorkerProcess>> gone;  // reaped outside the lock
  {
    std::lock_guard<std::mutex> lock(idle_mutex());
    auto& idle = idle_workers();
    for (auto it = idle.begin(); it != idle.end();) {
      if (!(*it)->still_idle()) {
        gone.push_back(std::move(*it));
        it = idle.erase(it);
      } else if ((*it)->serves(limits)) {
        std::unique_ptr<WorkerProcess> worker = std::move(*it);
        idle.erase(it);
        *reused = true;
        return worker;
      } else {
        ++it;
      }
    }
  }
  return std::make_unique<WorkerProcess>(limits);
}

void give_back(std::unique_ptr<WorkerProcess> worker) {
  std::lock_guard<std::mutex> lock(idle_mutex());
  auto& idle = idle_workers();
  if (idle.size() >= kMaxIdleWorkers) idle.erase(idle.begin());  // the oldest ends
  idle.push_back(std::move(worker));
}

/// Lets the worker compute for `seconds` more CPU time from now.
void allow_cpu_seconds(double seconds) {
  rusage used{};
  ::getrusage(RUSAGE_SELF, &used);
  const double spent = used.ru_utime.tv_sec + used.ru_stime.tv_sec +
                       (used.ru_utime.tv_usec + used.ru_stime.tv_usec) / 1e6;
  rlimit limit{};
  ::getrlimit(RLIMIT_CPU, &limit);
  limit.rlim_cur = static_cast<rlim_t>(std::ceil(spent + seconds));
  if (limit.rlim_max != RLIM_INFINITY) limit.rlim_cur = std::min(limit.rlim_cur, limit.rlim_max);
  ::setrlimit(RLIMIT_CPU, &limit);
}

}  // namespace

Placement map_in_worker(const MappingRequest& request, const std::string& strategy,
                        const MapWorkerLimits& limits, const LinkCostPatch& own_links) {
  const std::size_t max_answer = 4096 + 4 * static_cast<std::size_t>(request.graph->task_count());
  bool reused = false;
  std::unique_ptr<WorkerProcess> worker = take_worker(limits, &reused);
  std::string answer;
  try {
    answer = worker->exchange(worker->job_for(request, strategy, own_links), max_answer);
  } catch (const MapWorkerFailure&) {
    // An idle worker may have died just before it was taken: a new one gets
    // the job once (a job that crashes workers crashes the new one too).
    if (!reused || worker->timed_out()) throw;
    worker = std::make_unique<WorkerProcess>(limits);
    answer = worker->exchange(worker->job_for(request, strategy, own_links), max_answer);
  }
  if (is_out_of_memory(answer)) throw MapWorkerFailure(out_of_memory(limits));
  Placement placement;
  try {
    placement = decode_map_result(answer, request.graph->task_count());
  } catch (const MapWorkerFailure&) {
    throw;
  } catch (const Error&) {
    worker->answered(request, false);
    give_back(std::move(worker));  // the strategy's own error: the worker is fine
    throw;
  }
  worker->answered(request, true);
  give_back(std::move(worker));
  return placement;
}

bool start_idle_map_worker(const MapWorkerLimits& limits, std::string* why) {
  try {
    give_back(std::make_unique<WorkerProcess>(limits));
    return true;
  } catch (const Error& e) {
    if (why) *why = e.what();
    return false;
  }
}

void stop_idle_map_workers() {
  std::vector<std::unique_ptr<WorkerProcess>> ending;
  {
    std::lock_guard<std::mutex> lock(idle_mutex());
    ending.swap(idle_workers());
  }
}

int serve_map_jobs(int in_fd, int out_fd, double cpu_seconds) {
  KeptLinkCosts kept;
  for (;;) {
    std::string job;
    try {
      job = read_frame(in_fd, ~std::size_t{0} >> 1, nullptr);
    } catch (const EndOfInput&) {
      return 0;
    } catch (const std::bad_alloc&) {
      return kExitOutOfMemory;
    } catch (const std::exception&) {
      return kExitUnexpected;
    }
    allow_cpu_seconds(cpu_seconds);
    std::string answer;
    int exit_code = 0;
    try {
      const std::unique_ptr<MapJob> decoded = decode_map_job(job, &kept);
      job.clear();
      job.shrink_to_fit();
      const Placement placement = make_mapper(decoded->strategy)->map(decoded->request);
      check_placement(decoded->request, placement);
      answer = encode_map_result(placement);
    } catch (const std::bad_alloc&) {
      answer = encode_map_out_of_memory();
      exit_code = kExitOutOfMemory;  // the heap may be in any state: start afresh
    } catch (const Error& e) {
      answer = encode_map_error(e.what());
    } catch (const std::exception& e) {
      answer = encode_map_error(e.what());
    }
    try {
      write_frame(out_fd, answer, net::Deadline(std::chrono::seconds(10)));
    } catch (const std::exception&) {
      return kExitUnexpected;
    }
    if (exit_code != 0) return exit_code;
  }
}

}  // namespace tofa::service
