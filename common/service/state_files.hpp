// Files under the service's state directory: atomic replacement and
// quarantine of corrupt files.
#pragma once

#include <string>

namespace tofa::service {

/// Replaces `path` with `content` so that a crash leaves either the old or
/// the new file: write PATH.tmp, fsync, rename over PATH, fsync the
/// directory. Throws Error "cannot write PATH: TEXT".
void write_file_atomically(const std::string& path, const std::string& content);

/// The whole file; false when it does not exist. Throws Error when it exists
/// but cannot be read or exceeds `max_bytes`.
bool read_file(const std::string& path, std::string& content, long long max_bytes);

/// Renames `path` to PATH.corrupt.<epoch seconds> and returns the new name.
/// Throws Error when the rename fails.
std::string move_aside(const std::string& path);

/// Creates the directory (and parents) with mode 0700 if missing. Throws Error.
void make_directory(const std::string& path);

/// Removes a file; a missing file is not an error. Throws Error otherwise.
void remove_file(const std::string& path);

/// Seconds since the epoch, with sub-second precision.
double now_seconds();

}  // namespace tofa::service
