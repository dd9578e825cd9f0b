#include "net/socket_io.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/error.hpp"

namespace tofa::net {

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = other.release();
  }
  return *this;
}

int Fd::release() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

int Deadline::remaining_ms() const {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(end_ - std::chrono::steady_clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

namespace {

// Waits until `fd` is ready for `events`; throws on timeout or cancellation.
void wait_ready(int fd, short events, const Deadline& deadline, int cancel_fd,
                const std::string& what) {
  for (;;) {
    pollfd fds[2] = {{fd, events, 0}, {cancel_fd, POLLIN, 0}};
    int n = ::poll(fds, cancel_fd >= 0 ? 2 : 1, deadline.remaining_ms());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw Error(what + ": poll: " + std::strerror(errno));
    if (n == 0) throw Error(what + ": timed out");
    if (cancel_fd >= 0 && fds[1].revents) throw Error(what + ": cancelled");
    return;  // ready, or an error/hangup the next read/write will report
  }
}

}  // namespace

void read_exact(int fd, char* out, std::size_t size, const Deadline& deadline, int cancel_fd,
                const std::string& what) {
  std::size_t done = 0;
  while (done < size) {
    ssize_t n = ::recv(fd, out + done, size - done, 0);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
    } else if (n == 0) {
      throw PeerClosed(what + ": connection closed after " + std::to_string(done) + " of " +
                           std::to_string(size) + " bytes",
                       done == 0);
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      wait_ready(fd, POLLIN, deadline, cancel_fd, what);
    } else if (errno == ECONNRESET) {
      throw PeerClosed(what + ": " + std::strerror(errno), done == 0);
    } else if (errno != EINTR) {
      throw Error(what + ": " + std::strerror(errno));
    }
  }
}

void await_first_byte(int fd, const Deadline& deadline, const std::string& what) {
  for (;;) {
    char byte;
    const ssize_t n = ::recv(fd, &byte, 1, MSG_PEEK);
    if (n > 0) return;
    if (n == 0) throw PeerClosed(what + ": connection closed before any byte", true);
    if (errno == EAGAIN || errno == EWOULDBLOCK)
      wait_ready(fd, POLLIN, deadline, -1, what);
    else if (errno == ECONNRESET)
      throw PeerClosed(what + ": " + std::strerror(errno), true);
    else if (errno != EINTR)
      throw Error(what + ": " + std::strerror(errno));
  }
}

void write_all(int fd, const std::string& data, const Deadline& deadline, int cancel_fd,
               const std::string& what) {
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n >= 0) {
      done += static_cast<std::size_t>(n);
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      wait_ready(fd, POLLOUT, deadline, cancel_fd, what);
    } else if (errno == EPIPE || errno == ECONNRESET) {
      throw PeerClosed(what + ": " + std::strerror(errno), true);
    } else if (errno != EINTR) {
      throw Error(what + ": " + std::strerror(errno));
    }
  }
}

Fd connect_tcp(const std::string& host, int port, const Deadline& deadline) {
  const std::string where = "connect to " + host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) throw ConnectError(where + ": " + ::gai_strerror(rc));

  std::string last_error = "no address";
  for (addrinfo* ai = found; ai; ai = ai->ai_next) {
    Fd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol));
    if (fd.get() < 0) {
      last_error = std::strerror(errno);
      continue;
    }
    if (::connect(fd.get(), ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS) {
      last_error = std::strerror(errno);
      continue;
    }
    pollfd p{fd.get(), POLLOUT, 0};
    int n;
    do n = ::poll(&p, 1, deadline.remaining_ms()); while (n < 0 && errno == EINTR);
    if (n == 0) {
      last_error = "timed out";
      break;
    }
    int err = 0;
    socklen_t len = sizeof err;
    if (n < 0 || ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
    if (err == 0) {
      ::freeaddrinfo(found);
      return fd;
    }
    last_error = std::strerror(err);
  }
  ::freeaddrinfo(found);
  throw ConnectError(where + ": " + last_error);
}

std::string peer_name(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&addr), &len) < 0) return "?";
  char host[INET6_ADDRSTRLEN] = "?";
  int port = 0;
  if (addr.ss_family == AF_INET) {
    auto* a = reinterpret_cast<sockaddr_in*>(&addr);
    ::inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    port = ntohs(a->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
    ::inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    port = ntohs(a->sin6_port);
  }
  return std::string(host) + ":" + std::to_string(port);
}

}  // namespace tofa::net
