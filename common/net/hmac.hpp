// HMAC-SHA256 and secret keys for the session heartbeats (service/heartbeat_datagram.hpp).
#pragma once

#include <cstddef>
#include <string>

namespace tofa::net {

/// The 32-byte HMAC-SHA256 of `message` under `key`, as raw bytes.
std::string hmac_sha256(const std::string& key, const std::string& message);

/// a == b in a time that does not depend on where they first differ.
bool equal_in_constant_time(const std::string& a, const std::string& b);

/// `count` bytes from the kernel's random generator (getrandom). Throws Error
/// when it fails.
std::string random_bytes(std::size_t count);

}  // namespace tofa::net
