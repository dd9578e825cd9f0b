#include "net/reply_writer.hpp"

#include <sys/socket.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstring>

#include "base/error.hpp"

namespace tofa::net {

bool ReplyWriter::write_available(int fd) {
  const std::size_t total = header_.size() + body_.size();
  while (sent_ < total) {
    iovec parts[2];
    int count = 0;
    if (sent_ < header_.size()) {
      parts[count++] = {&header_[sent_], header_.size() - sent_};
      if (!body_.empty()) parts[count++] = {&body_[0], body_.size()};
    } else {
      parts[count++] = {&body_[sent_ - header_.size()], total - sent_};
    }
    msghdr message{};
    message.msg_iov = parts;
    message.msg_iovlen = static_cast<decltype(message.msg_iovlen)>(count);
    const ssize_t n = ::sendmsg(fd, &message, MSG_NOSIGNAL);
    if (n >= 0) {
      sent_ += static_cast<std::size_t>(n);
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      return false;
    } else if (errno != EINTR) {
      throw Error(std::string("sending reply: ") + std::strerror(errno));
    }
  }
  return true;
}

}  // namespace tofa::net
