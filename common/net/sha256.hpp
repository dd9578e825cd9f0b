// SHA-256, used to bind a message body to its munge credential.
#pragma once

#include <string>

namespace tofa::net {

/// The 32-byte SHA-256 digest of `data`, as raw bytes. O(data.size()).
std::string sha256(const std::string& data);

/// `bytes` as lowercase hexadecimal (two characters per byte).
std::string to_hex(const std::string& bytes);

}  // namespace tofa::net
