#include "service/graph_file.hpp"

#include "net/sha256.hpp"
#include "service/state_text.hpp"

namespace tofa::service {
namespace {

bool matches(const std::string& text, const std::string& sha256) {
  return net::to_hex(net::sha256(text)) == sha256;
}

}  // namespace

std::string graph_file_text(const std::string& uploaded) {
  return state_header("graph") + uploaded;
}

std::string uploaded_text(const std::string& file_text, const std::string& sha256,
                          const std::string& source) {
  const std::size_t newline = file_text.find('\n');
  const std::optional<int> version =
      newline == std::string::npos
          ? std::nullopt
          : state_header_version(file_text.substr(0, newline), "graph");
  // The digest decides between a header and an upload that happens to start
  // with one.
  if (version && *version <= kStateVersion) {
    std::string body = file_text.substr(newline + 1);
    if (matches(body, sha256)) return body;
  }
  if (matches(file_text, sha256)) return file_text;
  if (version && *version > kStateVersion)
    throw NewerStateFile(source + ": format version " + std::to_string(*version) +
                         ", this tofa reads versions up to " + std::to_string(kStateVersion));
  throw Error(source + ": content does not match the SHA-256 recorded at upload (damaged file)");
}

}  // namespace tofa::service
