// Misbehaving TCP peers for server tests: idle connections, connections that
// drip a header one byte at a time, and connections from a chosen loopback
// source address (127.0.0.0/8 is all loopback, so a test can be "many peers").
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "net/socket_io.hpp"

namespace tofa_test {

/// A blocking TCP connection from `source` (e.g. "127.0.0.2") to 127.0.0.1:port.
inline tofa::net::Fd connect_from(const std::string& source, int port) {
  tofa::net::Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &local.sin_addr);
  sockaddr_in remote{};
  remote.sin_family = AF_INET;
  remote.sin_port = htons(static_cast<std::uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&local), sizeof local) < 0 ||
      ::connect(fd.get(), reinterpret_cast<sockaddr*>(&remote), sizeof remote) < 0)
    return tofa::net::Fd();
  return fd;
}

/// A listening socket on 127.0.0.1 and an ephemeral port (in *port).
inline tofa::net::Fd listen_loopback(int* port) {
  tofa::net::Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0 ||
      ::listen(fd.get(), 64) < 0 ||
      ::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&addr), &len) < 0)
    return tofa::net::Fd();
  *port = ntohs(addr.sin_port);
  return fd;
}

/// True once the server has closed `fd` (EOF or reset), waiting up to `wait`.
inline bool closed_by_server(int fd, std::chrono::milliseconds wait) {
  const auto end = std::chrono::steady_clock::now() + wait;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        end - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, left.count() > 0 ? static_cast<int>(left.count()) : 0) <= 0) return false;
    char byte;
    const ssize_t n = ::recv(fd, &byte, 1, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
      return true;
    // Data (e.g. an error reply) before the close: keep reading.
  }
}

/// Connections that send a plausible frame header one byte every `pause`,
/// never finishing it, until destroyed.
class SlowDrip {
 public:
  SlowDrip(int port, int connections, std::chrono::milliseconds pause) {
    for (int i = 0; i < connections; ++i) fds_.push_back(connect_from("127.0.0.1", port));
    thread_ = std::thread([this, pause] {
      const std::string header = std::string("\0\0\0\xc8", 4) + "MUNGE:" + std::string(194, 'A');
      for (std::size_t at = 0; !stop_ && at < header.size(); ++at) {
        for (const tofa::net::Fd& fd : fds_)
          if (fd.get() >= 0) (void)::send(fd.get(), &header[at], 1, MSG_NOSIGNAL);
        for (auto slept = std::chrono::milliseconds(0); !stop_ && slept < pause;
             slept += std::chrono::milliseconds(10))
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
  }
  ~SlowDrip() {
    stop_ = true;
    thread_.join();
  }
  SlowDrip(const SlowDrip&) = delete;
  SlowDrip& operator=(const SlowDrip&) = delete;
  const std::vector<tofa::net::Fd>& fds() const { return fds_; }

 private:
  std::vector<tofa::net::Fd> fds_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

/// Connections that connect and never send anything.
inline std::vector<tofa::net::Fd> idle_connections(int port, int count,
                                                   const std::string& source = "127.0.0.1") {
  std::vector<tofa::net::Fd> fds;
  for (int i = 0; i < count; ++i) fds.push_back(connect_from(source, port));
  return fds;
}

}  // namespace tofa_test
