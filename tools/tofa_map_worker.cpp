// tofa-map-worker: computes placements for the tofa service in a process of
// its own (see common/service/map_worker.hpp). It limits itself before it
// reads anything: address space (--memory-mb), no core files, no inherited
// descriptors beyond the job socket; and its CPU time before each job
// (--cpu-seconds more than it has used).
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "service/map_worker.hpp"

namespace {

/// A worker started by root (slurmctld as root) computes as nobody: it needs
/// no file and no privilege, only its socket.
bool drop_privileges() {
  if (::geteuid() != 0) return true;
  const passwd* nobody = ::getpwnam("nobody");
  const uid_t uid = nobody ? nobody->pw_uid : 65534;
  const gid_t gid = nobody ? nobody->pw_gid : 65534;
  return ::setgroups(0, nullptr) == 0 && ::setgid(gid) == 0 && ::setuid(uid) == 0;
}

// ASan and TSan reserve terabytes of address space for their shadow memory:
// under them the address-space limit is left out (the sanitizer builds of
// scripts/sanitizers.sh), and only the CPU limit applies.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TOFA_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TOFA_SANITIZED 1
#endif
#endif

bool limit(int resource, rlim_t soft, rlim_t hard) {
#ifdef TOFA_SANITIZED
  if (resource == RLIMIT_AS) return true;
#endif
  const rlimit value{soft, hard};
  return ::setrlimit(resource, &value) == 0;
}

long long number_after(int& i, int argc, char** argv) {
  if (i + 1 >= argc) return -1;
  char* end = nullptr;
  const long long value = std::strtoll(argv[++i], &end, 10);
  return end && *end == '\0' && value > 0 ? value : -1;
}

}  // namespace

int main(int argc, char** argv) {
  long long memory_mb = -1;
  long long cpu_seconds = -1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--memory-mb") == 0) {
      memory_mb = number_after(i, argc, argv);
    } else if (std::strcmp(argv[i], "--cpu-seconds") == 0) {
      cpu_seconds = number_after(i, argc, argv);
    } else {
      memory_mb = cpu_seconds = -1;
      break;
    }
  }
  if (memory_mb <= 0 || cpu_seconds <= 0) {
    std::fprintf(stderr,
                 "usage: tofa-map-worker --memory-mb N --cpu-seconds S\n"
                 "  reads mapping jobs on standard input (a socket), writes their placements\n"
                 "  back; started by the tofa service (slurmctld/tofa), not by hand\n");
    return 64;
  }
  ::close_range(3, ~0U, 0);
  const rlim_t bytes = static_cast<rlim_t>(memory_mb) << 20;
  if (!limit(RLIMIT_AS, bytes, bytes) || !limit(RLIMIT_CORE, 0, 0) || !drop_privileges() ||
      ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    std::perror("tofa-map-worker: limits");
    return 1;
  }
  // Strategies may print progress; only the answer goes to the job socket.
  const int answer_fd = ::dup(STDOUT_FILENO);
  const int null_fd = ::open("/dev/null", O_WRONLY);
  if (answer_fd < 0 || null_fd < 0 || ::dup2(null_fd, STDOUT_FILENO) < 0) {
    std::perror("tofa-map-worker");
    return 1;
  }
  return tofa::service::serve_map_jobs(STDIN_FILENO, answer_fd, static_cast<double>(cpu_seconds));
}
