// Server setup and the workers' side: verifying credentials, running the
// handler and sealing replies. The I/O thread is in server_loop.cpp.
#include "net/server.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/error.hpp"
#include "base/printable.hpp"
#include "net/server_connection.hpp"

namespace tofa::net {
namespace {

Fd listen_on(const std::string& host, int port, int backlog) {
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
      ::bind(fd.get(), found->ai_addr, found->ai_addrlen) < 0 ||
      ::listen(fd.get(), backlog > 0 ? backlog : 1024) < 0)
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

void add_to_epoll(int epoll, int fd, std::uint64_t tag) {
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.u64 = tag;
  if (::epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) < 0)
    throw Error(std::string("epoll_ctl: ") + std::strerror(errno));
}

}  // namespace

Server::Server(ServerOptions options, Handler handler)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      codec_(options_.munge_socket),
      admission_({options_.max_connections, options_.max_connections_per_peer}) {
  listener_ = listen_on(options_.host, options_.port, options_.backlog);
  port_ = bound_port(listener_.get());
  wake_ = Fd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (wake_.get() < 0) throw Error(std::string("eventfd: ") + std::strerror(errno));
  epoll_ = Fd(::epoll_create1(EPOLL_CLOEXEC));
  if (epoll_.get() < 0) throw Error(std::string("epoll_create1: ") + std::strerror(errno));
  add_to_epoll(epoll_.get(), listener_.get(), kListenerTag);
  add_to_epoll(epoll_.get(), wake_.get(), kWakeTag);
  workers_ = std::make_unique<WorkerPool>(options_.workers);
  try {
    io_thread_ = std::thread([this] { run(); });
  } catch (...) {
    workers_->stop();
    throw;
  }
}

Server::~Server() { stop(); }

void Server::stop() {
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (!io_thread_.joinable()) return;
  stopping_ = true;
  std::uint64_t one = 1;
  if (::write(wake_.get(), &one, sizeof one) < 0) {
    // Cannot happen for a fresh eventfd; the I/O thread would then never wake.
    std::perror("tofa::net::Server::stop: eventfd write");
  }
  io_thread_.join();  // closes the listener and every connection on its way out
  workers_->stop();
}

void Server::log(const std::string& line) const {
  try {
    for (const std::string& admitted : log_limiter_.admit(tofa::printable(line))) {
      if (options_.log_error)
        options_.log_error(admitted);
      else
        std::fprintf(stderr, "tofa-net: %s\n", admitted.c_str());
    }
  } catch (...) {  // a throwing logger must not take a server thread down
  }
}

void Server::complete(Completion completion) {
  {
    std::lock_guard<std::mutex> lock(completions_mutex_);
    completions_.push_back(std::move(completion));
  }
  std::uint64_t one = 1;
  if (::write(wake_.get(), &one, sizeof one) < 0) {
    // Only at the counter's maximum, which the I/O thread's reads prevent.
  }
}

Server::Completion Server::reply(std::uint64_t id, const std::string& peer,
                                 const std::string& credential, const std::string& text) const {
  Completion completion;
  completion.id = id;
  try {
    EncodedFrame frame = encode_frame(codec_, FrameKind::reply, text, binding_for(credential));
    completion.kind = Completion::Kind::reply_ready;
    completion.header = std::move(frame.header);
    completion.body = text;
  } catch (const std::exception& e) {
    log("reply to " + peer + ": " + e.what());
    completion.kind = Completion::Kind::close;
  }
  return completion;
}

void Server::verify(std::uint64_t id, const std::string& peer, const std::string& credential) {
  try {
    const MungeDecoded decoded = decode_credential(codec_, credential);
    Completion completion;
    completion.id = id;
    completion.kind = Completion::Kind::seal_opened;
    completion.sealed = open_seal(decoded.payload, FrameKind::request, no_binding(),
                                  options_.max_body);
    completion.uid = decoded.uid;
    completion.gid = decoded.gid;
    complete(std::move(completion));
  } catch (const std::exception& e) {
    log("request from " + peer + ": " + e.what());
    complete(reply(id, peer, credential, std::string("ERROR ") + e.what()));
  }
}

void Server::handle(std::uint64_t id, const Request& request, const std::string& credential,
                    const SealedBody& sealed) {
  try {
    check_body(request.body, sealed);
  } catch (const std::exception& e) {
    log("request from " + request.peer + ": " + e.what());
    complete(reply(id, request.peer, credential, std::string("ERROR ") + e.what()));
    return;
  }
  std::string text;
  try {
    text = handler_(request);
  } catch (const std::exception& e) {
    text = std::string("ERROR ") + e.what();
  } catch (...) {
    text = "ERROR unknown exception in request handler";
  }
  complete(reply(id, request.peer, credential, text));
}

}  // namespace tofa::net
