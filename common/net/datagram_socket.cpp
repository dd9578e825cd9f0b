#include "net/datagram_socket.hpp"

#include <netdb.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <memory>

namespace tofa::net {
namespace {

void raise_buffers(int fd, int bytes) {
  for (int option : {SO_RCVBUFFORCE, SO_SNDBUFFORCE}) {
    if (::setsockopt(fd, SOL_SOCKET, option, &bytes, sizeof bytes) == 0) continue;
    const int fallback = option == SO_RCVBUFFORCE ? SO_RCVBUF : SO_SNDBUF;
    ::setsockopt(fd, SOL_SOCKET, fallback, &bytes, sizeof bytes);  // capped by the kernel
  }
}

addrinfo* lookup(const std::string& host, int port, bool passive, const std::string& where) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = passive ? AI_PASSIVE : 0;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.empty() ? nullptr : host.c_str(),
                               std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) throw Error(where + ": " + ::gai_strerror(rc));
  return found;
}

}  // namespace

DatagramAddress resolve_datagram(const std::string& host, int port) {
  const std::string where = "resolve " + host + ":" + std::to_string(port);
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> found(lookup(host, port, false, where),
                                                              &::freeaddrinfo);
  DatagramAddress out;
  std::memcpy(&out.address, found->ai_addr, found->ai_addrlen);
  out.length = found->ai_addrlen;
  return out;
}

Fd open_datagram_socket(int family, int buffer_bytes) {
  Fd fd(::socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (fd.get() < 0) throw Error(std::string("udp socket: ") + std::strerror(errno));
  raise_buffers(fd.get(), buffer_bytes);
  return fd;
}

Fd bind_datagram_socket(const std::string& host, int port, int buffer_bytes) {
  const std::string where = "bind udp " + host + ":" + std::to_string(port);
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> found(lookup(host, port, true, where),
                                                              &::freeaddrinfo);
  Fd fd = open_datagram_socket(found->ai_family, buffer_bytes);
  if (::bind(fd.get(), found->ai_addr, found->ai_addrlen) < 0)
    throw Error(where + ": " + std::strerror(errno));
  return fd;
}

std::optional<std::string> receive_datagram(int fd, std::size_t max_bytes, DatagramAddress* from) {
  std::string buffer(max_bytes + 1, '\0');
  for (;;) {
    DatagramAddress sender;
    sender.length = sizeof sender.address;
    const ssize_t n = ::recvfrom(fd, &buffer[0], buffer.size(), 0,
                                 reinterpret_cast<sockaddr*>(&sender.address), &sender.length);
    if (n < 0) {
      if (errno == EINTR) continue;
      return std::nullopt;  // EAGAIN: nothing waiting; other errors: nothing to read either
    }
    if (static_cast<std::size_t>(n) > max_bytes) continue;  // too long for the format
    if (from) *from = sender;
    buffer.resize(static_cast<std::size_t>(n));
    return buffer;
  }
}

bool send_datagram(int fd, const std::string& data, const DatagramAddress& to) {
  for (;;) {
    const ssize_t n = ::sendto(fd, data.data(), data.size(), 0,
                               reinterpret_cast<const sockaddr*>(&to.address), to.length);
    if (n >= 0) return true;
    if (errno != EINTR) return false;
  }
}

}  // namespace tofa::net
