#include "net/server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

#include "net/frame.hpp"
#include "tofa/error.hpp"

namespace tofa::net {
namespace {

Fd listen_on(const std::string& host, int port) {
  const std::string where = "bind " + host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), std::to_string(port).c_str(),
                         &hints, &found);
  if (rc != 0) throw Error(where + ": " + ::gai_strerror(rc));
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> owned(found, &::freeaddrinfo);

  Fd fd(::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  int one = 1;
  if (fd.get() < 0 || ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
      ::bind(fd.get(), found->ai_addr, found->ai_addrlen) < 0 || ::listen(fd.get(), 64) < 0)
    throw Error(where + ": " + std::strerror(errno));
  return fd;
}

int bound_port(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  if (addr.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
  return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
}

}  // namespace

Server::Server(ServerOptions options, Handler handler)
    : options_(std::move(options)), handler_(std::move(handler)), codec_(options_.munge_socket) {
  listener_ = listen_on(options_.host, options_.port);
  port_ = bound_port(listener_.get());
  stop_event_ = Fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (stop_event_.get() < 0) throw Error(std::string("eventfd: ") + std::strerror(errno));
  int workers = options_.workers > 0 ? options_.workers : 1;
  try {
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  } catch (...) {
    stop();
    throw;
  }
}

Server::~Server() { stop(); }

void Server::stop() {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (workers_.empty()) return;
  std::uint64_t one = 1;
  if (::write(stop_event_.get(), &one, sizeof one) < 0) {
    // Cannot happen for a fresh eventfd; workers would then never wake.
    std::perror("tofa::net::Server::stop: eventfd write");
  }
  for (auto& worker : workers_) worker.join();
  workers_.clear();
  listener_.reset();
}

void Server::log(const std::string& line) const {
  if (options_.log_error)
    options_.log_error(line);
  else
    std::fprintf(stderr, "tofa-net: %s\n", line.c_str());
}

void Server::work() {
  for (;;) {
    pollfd fds[2] = {{listener_.get(), POLLIN, 0}, {stop_event_.get(), POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
      log(std::string("poll: ") + std::strerror(errno));
      return;
    }
    if (fds[1].revents) return;
    if (!fds[0].revents) continue;
    // Several workers wake for one connection; the losers get EAGAIN.
    Fd connection(::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
    if (connection.get() >= 0) {
      try {
        serve(std::move(connection));
      } catch (...) {
        // Only a throwing log_error callback gets here; keep serving.
      }
    } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
               errno != ECONNABORTED) {
      log(std::string("accept: ") + std::strerror(errno));
      pollfd pause{stop_event_.get(), POLLIN, 0};
      ::poll(&pause, 1, 100);  // e.g. EMFILE: do not spin
    }
  }
}

void Server::serve(Fd connection) {
  const int fd = connection.get();
  const std::string peer = peer_name(fd);
  std::string credential;
  Request request;
  try {
    Frame frame = receive_frame(fd, codec_, FrameKind::request, no_binding(), options_.max_body,
                                Deadline(options_.io_timeout), stop_event_.get(), &credential);
    request = Request{std::move(frame.body), frame.uid, frame.gid, peer};
  } catch (const std::exception& e) {
    log("request from " + peer + ": " + e.what());
    if (!credential.empty()) {
      try {
        send_frame(fd, codec_, FrameKind::reply, std::string("ERROR ") + e.what(),
                   binding_for(credential), Deadline(options_.io_timeout), stop_event_.get());
      } catch (const std::exception&) {
        // Best effort: the peer may be gone or unable to read.
      }
    }
    return;
  }

  std::string reply;
  try {
    reply = handler_(request);
  } catch (const std::exception& e) {
    reply = std::string("ERROR ") + e.what();
  } catch (...) {
    reply = "ERROR unknown exception in request handler";
  }
  try {
    send_frame(fd, codec_, FrameKind::reply, reply, binding_for(credential),
               Deadline(options_.io_timeout), stop_event_.get());
  } catch (const std::exception& e) {
    log("reply to " + peer + ": " + e.what());
  }
}

}  // namespace tofa::net
