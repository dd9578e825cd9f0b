// UDP sockets for the session heartbeats (service/heartbeat_datagram.hpp).
#pragma once

#include <sys/socket.h>

#include <optional>
#include <string>

#include "net/socket_io.hpp"

namespace tofa::net {

/// A resolved UDP address.
struct DatagramAddress {
  sockaddr_storage address{};
  socklen_t length = 0;
  int family() const { return address.ss_family; }
};

/// host:port resolved for UDP (the first address getaddrinfo gives). Throws
/// Error "resolve HOST:PORT: TEXT".
DatagramAddress resolve_datagram(const std::string& host, int port);

/// A non-blocking UDP socket of `family`, receive and send buffers raised
/// towards `buffer_bytes` (beyond net.core.rmem_max when run as root).
Fd open_datagram_socket(int family, int buffer_bytes);

/// A non-blocking UDP socket bound to host:port ("" = any address). Throws
/// Error "bind udp HOST:PORT: TEXT".
Fd bind_datagram_socket(const std::string& host, int port, int buffer_bytes);

/// One datagram if one is waiting (up to max_bytes; a longer one is
/// truncated and dropped), else nullopt. `from` receives the sender.
std::optional<std::string> receive_datagram(int fd, std::size_t max_bytes, DatagramAddress* from);

/// Sends one datagram; false when the socket's buffer is full (EAGAIN,
/// ENOBUFS) or the address is unreachable (the caller counts it as lost).
bool send_datagram(int fd, const std::string& data, const DatagramAddress& to);

}  // namespace tofa::net
