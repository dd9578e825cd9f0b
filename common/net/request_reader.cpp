#include "net/request_reader.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/error.hpp"
#include "net/frame.hpp"

namespace tofa::net {
namespace {

// Body bytes are appended as they come, so a peer that announces a large body
// and sends little holds only what it sent.
constexpr std::size_t kBodyChunk = std::size_t(256) << 10;

}  // namespace

const char* RequestReader::activity() const {
  switch (stage_) {
    case Stage::length:
      return "reading credential length";
    case Stage::credential:
      return "reading credential";
    default:
      return "reading body";
  }
}

bool RequestReader::receive(int fd, char* out, std::size_t wanted, std::size_t done,
                            std::size_t total, std::size_t& got) {
  for (;;) {
    const ssize_t n = ::recv(fd, out, wanted, 0);
    if (n > 0) {
      got = static_cast<std::size_t>(n);
      return true;
    }
    if (n == 0)
      throw Error(std::string(activity()) + ": connection closed after " + std::to_string(done) +
                  " of " + std::to_string(total) + " bytes");
    if (errno == EAGAIN || errno == EWOULDBLOCK) return false;
    if (errno != EINTR) throw Error(std::string(activity()) + ": " + std::strerror(errno));
  }
}

void RequestReader::read_available(int fd) {
  std::size_t got = 0;
  while (stage_ == Stage::length) {
    if (!receive(fd, prefix_ + prefix_done_, 4 - prefix_done_, prefix_done_, 4, got)) return;
    prefix_done_ += got;
    if (prefix_done_ == 4) {
      credential_.assign(credential_length(prefix_), '\0');
      stage_ = Stage::credential;
    }
  }
  while (stage_ == Stage::credential) {
    if (!receive(fd, &credential_[credential_done_], credential_.size() - credential_done_,
                 credential_done_, credential_.size(), got))
      return;
    credential_done_ += got;
    if (credential_done_ == credential_.size()) stage_ = Stage::awaiting_length;
  }
  while (stage_ == Stage::body) {
    const std::size_t done = body_.size();
    const std::size_t wanted = std::min<std::uint64_t>(kBodyChunk, body_length_ - done);
    body_.resize(done + wanted);
    const bool more = receive(fd, &body_[done], wanted, done, body_length_, got);
    body_.resize(done + (more ? got : 0));
    if (!more) return;
    if (body_.size() == body_length_) stage_ = Stage::complete;
  }
}

void RequestReader::expect_body(std::uint64_t length) {
  body_length_ = length;
  body_.clear();
  stage_ = length == 0 ? Stage::complete : Stage::body;
}

}  // namespace tofa::net
