// The server's I/O thread: accepts, reads requests, writes replies, enforces
// the deadlines and the connection limits. It never blocks on a peer or on
// munged; work that may take time goes to the workers (server.cpp), whose
// results come back as Completions.
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/error.hpp"
#include "net/server.hpp"
#include "net/server_connection.hpp"

namespace tofa::net {
namespace {

constexpr int kMaxEvents = 64;
constexpr int kAcceptBurst = 64;  // accepts per wakeup, so reading is never starved
constexpr std::chrono::milliseconds kAcceptPause{100};  // after e.g. EMFILE

std::string address_of(const std::string& peer) { return peer.substr(0, peer.rfind(':')); }

void set_interest(int epoll, int fd, std::uint64_t tag, std::uint32_t old_events,
                  std::uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.u64 = tag;
  const int op = old_events == 0 ? EPOLL_CTL_ADD : events == 0 ? EPOLL_CTL_DEL : EPOLL_CTL_MOD;
  if (::epoll_ctl(epoll, op, fd, &event) < 0)
    throw Error(std::string("epoll_ctl: ") + std::strerror(errno));
}

}  // namespace

void Server::run() {
  while (!stopping_) {
    try {
      loop_once();
    } catch (const std::exception& e) {
      log(std::string("server loop: ") + e.what());
    } catch (...) {
      log("server loop: unknown exception");
    }
  }
  try {
    close_all();
  } catch (...) {
  }
}

void Server::loop_once() {
  epoll_event events[kMaxEvents];
  const int n = ::epoll_wait(epoll_.get(), events, kMaxEvents, wait_timeout_ms());
  if (n < 0 && errno != EINTR) throw Error(std::string("epoll_wait: ") + std::strerror(errno));
  for (int i = 0; i < n && !stopping_; ++i) {
    const std::uint64_t tag = events[i].data.u64;
    if (tag == kWakeTag) {
      std::uint64_t count;
      if (::read(wake_.get(), &count, sizeof count) < 0) {
        // EAGAIN: another wakeup already drained it.
      }
    } else if (tag == kListenerTag) {
      accept_connections();
    } else {
      const auto found = connections_.find(tag);
      if (found == connections_.end()) continue;  // dropped earlier in this batch
      Connection& connection = *found->second;
      try {
        on_ready(connection, events[i].events);
      } catch (const std::exception& e) {
        drop(connection, "request from " + connection.peer + ": " + e.what());
      }
    }
  }
  std::vector<Completion> done;
  {
    std::lock_guard<std::mutex> lock(completions_mutex_);
    done.swap(completions_);
  }
  for (Completion& completion : done) apply(completion);
  expire_deadlines();
  if (accept_paused_until_ && Clock::now() >= *accept_paused_until_) {
    accept_paused_until_.reset();
    set_interest(epoll_.get(), listener_.get(), kListenerTag, EPOLLIN, EPOLLIN);
  }
}

void Server::accept_connections() {
  for (int i = 0; i < kAcceptBurst && !accept_paused_until_; ++i) {
    const int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      admit(Fd(fd));
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      return;
    } else if (errno != EINTR && errno != ECONNABORTED) {
      log(std::string("accept: ") + std::strerror(errno));
      // Out of descriptors or memory: retry soon rather than spin.
      epoll_event none{};
      none.data.u64 = kListenerTag;
      ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, listener_.get(), &none);
      accept_paused_until_ = Clock::now() + kAcceptPause;
    }
  }
}

void Server::admit(Fd fd) {
  const std::string peer = peer_name(fd.get());
  const std::string address = address_of(peer);
  const Admission::Decision decision = admission_.on_arrival(address);
  if (!decision.admit) {
    log("connection from " + peer +
        " refused: connection limit reached and every connection has delivered its credential");
    return;  // fd closes
  }
  if (decision.evict) {
    const auto victim = connections_.find(*decision.evict);
    if (victim != connections_.end())
      drop(*victim->second, "request from " + victim->second->peer + ": " +
                                victim->second->reader.activity() +
                                ": evicted for a newer connection (connection limit reached)");
  }
  auto owned = std::make_unique<Connection>();
  Connection& connection = *owned;
  connection.id = next_id_++;
  connection.fd = std::move(fd);
  connection.peer = peer;
  connections_.emplace(connection.id, std::move(owned));
  admission_.add(connection.id, address);
  try {
    set_deadline(connection, Clock::now() + options_.header_timeout);
    watch(connection, EPOLLIN);
    read_request(connection);  // a prompt client's credential is often here already
  } catch (const std::exception& e) {
    drop(connection, "request from " + peer + ": " + e.what());
  }
}

void Server::on_ready(Connection& connection, std::uint32_t) {
  if (connection.reading())
    read_request(connection);
  else if (connection.phase == Connection::Phase::replying)
    write_reply(connection);
}

void Server::read_request(Connection& connection) {
  try {
    connection.reader.read_available(connection.fd.get());
  } catch (const std::exception& e) {
    drop(connection, "request from " + connection.peer + ": " + e.what());
    return;
  }
  const RequestReader::Stage stage = connection.reader.stage();
  if (stage == RequestReader::Stage::awaiting_length &&
      connection.phase == Connection::Phase::header) {
    connection.phase = Connection::Phase::verifying;
    admission_.credential_delivered(connection.id);
    set_deadline(connection, std::nullopt);
    watch(connection, 0);
    workers_->submit([this, id = connection.id, peer = connection.peer,
                      credential = connection.reader.credential()] {
      verify(id, peer, credential);
    });
  } else if (stage == RequestReader::Stage::complete &&
             connection.phase == Connection::Phase::body) {
    connection.phase = Connection::Phase::handling;
    set_deadline(connection, std::nullopt);
    watch(connection, 0);
    Request request{connection.reader.take_body(), connection.uid, connection.gid,
                    connection.peer};
    workers_->submit([this, id = connection.id, request = std::move(request),
                      credential = connection.reader.credential(), sealed = connection.sealed] {
      handle(id, request, credential, sealed);
    });
  }
}

void Server::write_reply(Connection& connection) {
  try {
    if (connection.writer.write_available(connection.fd.get())) {
      drop(connection, "");  // done: one request per connection
      return;
    }
  } catch (const std::exception& e) {
    drop(connection, "reply to " + connection.peer + ": " + e.what());
    return;
  }
  watch(connection, EPOLLOUT);
}

void Server::apply(Completion& completion) {
  const auto found = connections_.find(completion.id);
  if (found == connections_.end()) return;  // timed out, evicted or failed meanwhile
  Connection& connection = *found->second;
  try {
    switch (completion.kind) {
      case Completion::Kind::seal_opened:
        connection.uid = completion.uid;
        connection.gid = completion.gid;
        connection.sealed = completion.sealed;
        connection.phase = Connection::Phase::body;
        connection.reader.expect_body(completion.sealed.length);
        set_deadline(connection, Clock::now() + options_.io_timeout);
        watch(connection, EPOLLIN);
        read_request(connection);
        break;
      case Completion::Kind::reply_ready:
        connection.phase = Connection::Phase::replying;
        connection.writer =
            ReplyWriter(std::move(completion.header), std::move(completion.body));
        set_deadline(connection, Clock::now() + options_.io_timeout);
        write_reply(connection);
        break;
      case Completion::Kind::close:
        drop(connection, "");  // the worker logged why
        break;
    }
  } catch (const std::exception& e) {
    drop(connection, "request from " + connection.peer + ": " + e.what());
  }
}

void Server::expire_deadlines() {
  const auto now = Clock::now();
  while (!deadlines_.empty() && deadlines_.begin()->first <= now) {
    const auto found = connections_.find(deadlines_.begin()->second);
    if (found == connections_.end()) {
      deadlines_.erase(deadlines_.begin());
      continue;
    }
    Connection& connection = *found->second;
    drop(connection, connection.phase == Connection::Phase::replying
                         ? "reply to " + connection.peer + ": sending reply: timed out"
                         : "request from " + connection.peer + ": " +
                               connection.reader.activity() + ": timed out");
  }
}

int Server::wait_timeout_ms() const {
  std::optional<Clock::time_point> next;
  if (!deadlines_.empty()) next = deadlines_.begin()->first;
  if (accept_paused_until_ && (!next || *accept_paused_until_ < *next))
    next = accept_paused_until_;
  if (!next) return -1;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(*next - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 60000));
}

void Server::set_deadline(Connection& connection, std::optional<Clock::time_point> deadline) {
  if (connection.deadline) deadlines_.erase({*connection.deadline, connection.id});
  connection.deadline = deadline;
  if (deadline) deadlines_.insert({*deadline, connection.id});
}

// A connection waiting for a worker is not in epoll at all: epoll would
// report a hangup even with no events asked for, and spin.
void Server::watch(Connection& connection, std::uint32_t events) {
  if (events == connection.events) return;
  set_interest(epoll_.get(), connection.fd.get(), connection.id, connection.events, events);
  connection.events = events;
}

void Server::drop(Connection& connection, const std::string& line) {
  if (!line.empty()) log(line);
  const std::uint64_t id = connection.id;
  set_deadline(connection, std::nullopt);
  admission_.remove(id);
  connections_.erase(id);  // closing the descriptor also removes it from epoll
}

void Server::close_all() {
  for (const auto& [id, connection] : connections_) {
    if (connection->reading())
      log("request from " + connection->peer + ": " + connection->reader.activity() +
          ": cancelled");
    else if (connection->phase == Connection::Phase::replying)
      log("reply to " + connection->peer + ": sending reply: cancelled");
  }
  connections_.clear();
  deadlines_.clear();
  listener_.reset();
}

}  // namespace tofa::net
