// Files under the service's state directory: atomic, durable replacement and
// quarantine of corrupt files.
#pragma once

#include <string>
#include <vector>

namespace tofa::service {

/// Replaces `path` with `content` so that a crash (or power loss) leaves
/// either the old or the new file, and the new one is on disk when this
/// returns: write PATH.tmp (EINTR and short writes retried), fsync it, rename
/// it over PATH, fsync the directory. Throws Error "cannot write PATH: TEXT".
void write_file_atomically(const std::string& path, const std::string& content);

/// The whole file; false when it does not exist. Throws Error when it exists
/// but cannot be read or exceeds `max_bytes`.
bool read_file(const std::string& path, std::string& content, long long max_bytes);

/// Renames `path` to PATH.corrupt.<epoch seconds> and returns the new name.
/// Throws Error when the rename fails.
std::string move_aside(const std::string& path);

/// Creates the directory (and parents) with mode 0700 if missing; every
/// directory created is made durable by an fsync of its parent. Throws Error.
void make_directory(const std::string& path);

/// Removes the *.tmp files a crash during write_file_atomically left in
/// `directory`; returns their names. Failures are ignored (the next write of
/// the same file truncates its temporary anyway).
std::vector<std::string> remove_temporaries(const std::string& directory);

/// Removes a file; a missing file is not an error. Throws Error otherwise.
void remove_file(const std::string& path);

/// Seconds since the epoch, with sub-second precision.
double now_seconds();

}  // namespace tofa::service
