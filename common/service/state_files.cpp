#include "service/state_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "base/error.hpp"

namespace tofa::service {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw Error(what + " " + path + ": " + std::strerror(errno));
}

std::string parent_directory(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

int open_retrying(const std::string& path, int flags, mode_t mode = 0) {
  int fd;
  do fd = ::open(path.c_str(), flags, mode);
  while (fd < 0 && errno == EINTR);
  return fd;
}

int fsync_retrying(int fd) {
  int rc;
  do rc = ::fsync(fd);
  while (rc != 0 && errno == EINTR);
  return rc;
}

void write_all(int fd, const std::string& content, const std::string& path) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) errno = ENOSPC;  // a regular file that takes nothing is full
    if (n <= 0) fail("cannot write", path);
    done += static_cast<std::size_t>(n);
  }
}

/// A rename or a new entry is durable only once its directory is synced.
void sync_directory(const std::string& directory) {
  const int fd = open_retrying(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail("cannot sync directory", directory);
  if (fsync_retrying(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fail("cannot sync directory", directory);
  }
  ::close(fd);
}

void unlink_keeping_errno(const std::string& path) {
  const int saved = errno;
  ::unlink(path.c_str());
  errno = saved;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string temp = path + ".tmp";
  const int fd = open_retrying(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fail("cannot write", temp);
  try {
    write_all(fd, content, temp);
    if (fsync_retrying(fd) != 0) fail("cannot write", temp);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  // After a successful fsync a failing close loses nothing; EINTR from close
  // still closed the descriptor on Linux.
  if (::close(fd) != 0 && errno != EINTR) {
    unlink_keeping_errno(temp);
    fail("cannot write", temp);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    unlink_keeping_errno(temp);
    fail("cannot write", path);
  }
  sync_directory(parent_directory(path));
}

bool read_file(const std::string& path, std::string& content, long long max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return false;
    fail("cannot read", path);
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw Error("cannot read " + path + ": not a regular file");
  }
  if (info.st_size > max_bytes) {
    ::close(fd);
    throw Error("cannot read " + path + ": " + std::to_string(info.st_size) +
                " bytes exceed the limit of " + std::to_string(max_bytes));
  }
  content.assign(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::read(fd, &content[done], content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      fail("cannot read", path);
    }
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  ::close(fd);
  return true;
}

std::string move_aside(const std::string& path) {
  const auto epoch = static_cast<long long>(now_seconds());
  std::string target = path + ".corrupt." + std::to_string(epoch);
  for (int n = 1; ::access(target.c_str(), F_OK) == 0; ++n)  // two in one second
    target = path + ".corrupt." + std::to_string(epoch) + "." + std::to_string(n);
  if (::rename(path.c_str(), target.c_str()) != 0) fail("cannot move aside", path);
  return target;
}

void make_directory(const std::string& path) {
  if (path.empty()) throw Error("empty state directory");
  for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string prefix = path.substr(0, slash);
    if (::mkdir(prefix.c_str(), 0700) == 0)
      sync_directory(parent_directory(prefix));
    else if (errno != EEXIST)
      fail("cannot create", prefix);
    if (slash == std::string::npos) break;
  }
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw Error("cannot create " + path + ": not a directory");
}

std::vector<std::string> remove_temporaries(const std::string& directory) {
  std::vector<std::string> removed;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return removed;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    const std::string suffix = ".tmp";
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        ::unlink((directory + "/" + name).c_str()) == 0)
      removed.push_back(name);
  }
  ::closedir(dir);
  return removed;
}

void remove_file(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) fail("cannot remove", path);
}

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace tofa::service
