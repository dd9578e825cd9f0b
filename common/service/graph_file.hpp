// One uploaded graph on disk (graphs/ID.graph): a versioned header line, then
// the uploaded text byte for byte.
#pragma once

#include <string>

namespace tofa::service {

/// The file's content for an uploaded text.
std::string graph_file_text(const std::string& uploaded);

/// The uploaded text inside a graph file, checked against the SHA-256 (hex)
/// the index recorded for it; files of the format before version 2 are the
/// bare upload. Throws Error when the content does not match the digest (a
/// damaged file), NewerStateFile when a newer tofa wrote it.
std::string uploaded_text(const std::string& file_text, const std::string& sha256,
                          const std::string& source);

}  // namespace tofa::service
