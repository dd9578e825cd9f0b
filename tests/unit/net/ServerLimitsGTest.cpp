// The server under abuse (issue 10): idle and slow peers, connection limits,
// clients that never read their reply, replayed and expired credentials.
// Assertions are on behaviour; waits are bounded by generous deadlines only.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/error.hpp"
#include "munged_fixture.hpp"
#include "net/admission.hpp"
#include "net/client.hpp"
#include "net/frame.hpp"
#include "net/munge_codec.hpp"
#include "net/server.hpp"
#include "net/socket_io.hpp"
#include "raw_peers.hpp"

namespace {

using namespace tofa::net;
using namespace std::chrono_literals;
using tofa_test::closed_by_server;
using tofa_test::connect_from;

#define REQUIRE_MUNGED() \
  if (!tofa_test::cluster_munged().ok()) GTEST_SKIP() << "cannot start a private munged"

class Lines {
 public:
  std::function<void(const std::string&)> sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(line);
    };
  }
  int count(const std::string& part) {
    std::lock_guard<std::mutex> lock(mutex_);
    int n = 0;
    for (const std::string& line : lines_) n += line.find(part) != std::string::npos;
    return n;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

ServerOptions options(Lines& log) {
  ServerOptions o;
  o.host = "127.0.0.1";
  o.munge_socket = tofa_test::cluster_munged().socket();
  o.header_timeout = 60s;  // attackers stay for the whole test unless evicted
  o.log_error = log.sink();
  return o;
}

ClientOptions client() {
  ClientOptions o;
  o.munge_socket = tofa_test::cluster_munged().socket();
  o.timeout = 20s;
  return o;
}

std::string echo(const Request& r) { return "ECHO " + r.body; }

/// The reply body, or the error text.
std::string ask(int port, const std::string& body) {
  try {
    return request("127.0.0.1", port, body, client()).body;
  } catch (const std::exception& e) {
    return e.what();
  }
}

/// A request frame as a correct client sends it, sealed by `codec`.
std::string frame_bytes(const MungeCodec& codec, const std::string& body, std::string* credential) {
  EncodedFrame frame = encode_frame(codec, FrameKind::request, body, no_binding());
  *credential = frame.credential;
  return frame.header + body;
}

std::string reply_to(int fd, const std::string& credential) {
  return receive_frame(fd, MungeCodec(tofa_test::cluster_munged().socket()), FrameKind::reply,
                       binding_for(credential), 1 << 20, Deadline(20s), -1)
      .body;
}

/// Polls until `done` or 20 s; returns the final value.
bool eventually(const std::function<bool()>& done) {
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return done();
}

// ---------------------------------------------------------------- admission (no sockets)

TEST(AdmissionTest, EvictsTheOldestWithoutCredentialThenRefuses) {
  Admission admission({3, 3});
  admission.add(10, "a");
  admission.add(11, "a");
  admission.add(12, "b");
  Admission::Decision d = admission.on_arrival("c");
  EXPECT_TRUE(d.admit);
  EXPECT_EQ(d.evict, std::optional<std::uint64_t>(10));
  admission.credential_delivered(10);
  admission.credential_delivered(12);
  d = admission.on_arrival("c");
  EXPECT_EQ(d.evict, std::optional<std::uint64_t>(11));
  admission.credential_delivered(11);
  d = admission.on_arrival("c");
  EXPECT_FALSE(d.admit);
  admission.remove(11);
  d = admission.on_arrival("c");
  EXPECT_TRUE(d.admit);
  EXPECT_FALSE(d.evict.has_value());
}

TEST(AdmissionTest, PerPeerLimitEvictsOnlyFromThatPeer) {
  Admission admission({100, 2});
  admission.add(1, "b");  // oldest overall, but another peer
  admission.add(2, "a");
  admission.add(3, "a");
  Admission::Decision d = admission.on_arrival("a");
  EXPECT_EQ(d.evict, std::optional<std::uint64_t>(2));
  admission.credential_delivered(2);
  admission.credential_delivered(3);
  EXPECT_FALSE(admission.on_arrival("a").admit);
  EXPECT_TRUE(admission.on_arrival("b").admit);
}

// ---------------------------------------------------------------- the server

TEST(ServerLimitsTest, IdleAndSlowPeersDoNotStarveRealRequests) {
  REQUIRE_MUNGED();
  Lines log;
  ServerOptions o = options(log);
  o.workers = 4;
  Server server(o, echo);
  std::vector<Fd> idle = tofa_test::idle_connections(server.port(), 100);
  tofa_test::SlowDrip slow(server.port(), 10, 100ms);
  std::vector<std::future<std::string>> replies;
  for (int i = 0; i < 50; ++i)
    replies.push_back(std::async(std::launch::async, ask, server.port(), std::to_string(i)));
  for (int i = 0; i < 50; ++i) EXPECT_EQ(replies[i].get(), "ECHO " + std::to_string(i));
  // The attackers were never dropped to make room: the limits were not reached.
  for (const Fd& fd : idle) EXPECT_FALSE(closed_by_server(fd.get(), 0ms));
  EXPECT_EQ(log.count("evicted"), 0);
}

TEST(ServerLimitsTest, SlowHeaderIsDroppedAtTheHeaderDeadline) {
  REQUIRE_MUNGED();
  Lines log;
  ServerOptions o = options(log);
  o.header_timeout = 300ms;
  o.io_timeout = 3600s;
  Server server(o, echo);
  tofa_test::SlowDrip slow(server.port(), 1, 50ms);
  EXPECT_TRUE(closed_by_server(slow.fds()[0].get(), 20s));
  EXPECT_EQ(log.count(": reading credential: timed out"), 1);
  EXPECT_EQ(ask(server.port(), "x"), "ECHO x");
}

TEST(ServerLimitsTest, OverallLimitEvictsTheOldestConnectionWithoutCredential) {
  REQUIRE_MUNGED();
  Lines log;
  ServerOptions o = options(log);
  o.max_connections = 8;
  Server server(o, echo);
  std::vector<Fd> idle;
  for (int i = 0; i < 8; ++i) {
    idle.push_back(connect_from("127.0.0.1", server.port()));
    // Accepted in order, so the first is the oldest (the accept queue is FIFO).
  }
  EXPECT_EQ(ask(server.port(), "a"), "ECHO a");
  EXPECT_TRUE(closed_by_server(idle[0].get(), 20s));
  for (int i = 1; i < 8; ++i) EXPECT_FALSE(closed_by_server(idle[i].get(), 0ms)) << i;
  idle.push_back(connect_from("127.0.0.1", server.port()));  // full again
  EXPECT_EQ(ask(server.port(), "b"), "ECHO b");
  EXPECT_TRUE(closed_by_server(idle[1].get(), 20s));
  for (int i = 2; i < 9; ++i) EXPECT_FALSE(closed_by_server(idle[i].get(), 0ms)) << i;
  EXPECT_EQ(log.count("evicted for a newer connection (connection limit reached)"), 2);
}

TEST(ServerLimitsTest, PerPeerLimitEvictsOnlyThatPeersConnections) {
  REQUIRE_MUNGED();
  Lines log;
  ServerOptions o = options(log);
  o.max_connections_per_peer = 4;
  Server server(o, echo);
  std::vector<Fd> other = tofa_test::idle_connections(server.port(), 2, "127.0.0.3");
  std::vector<Fd> noisy = tofa_test::idle_connections(server.port(), 4, "127.0.0.2");
  ASSERT_GE(other[1].get(), 0);
  ASSERT_GE(noisy[3].get(), 0);
  Fd newcomer = connect_from("127.0.0.2", server.port());
  EXPECT_TRUE(closed_by_server(noisy[0].get(), 20s));
  for (int i = 1; i < 4; ++i) EXPECT_FALSE(closed_by_server(noisy[i].get(), 0ms)) << i;
  for (const Fd& fd : other) EXPECT_FALSE(closed_by_server(fd.get(), 0ms));
  EXPECT_FALSE(closed_by_server(newcomer.get(), 0ms));
  EXPECT_EQ(ask(server.port(), "c"), "ECHO c");  // from 127.0.0.1: its own budget
}

TEST(ServerLimitsTest, NewcomerIsRefusedWhenEveryConnectionHasItsCredentialAndRetries) {
  REQUIRE_MUNGED();
  Lines log;
  ServerOptions o = options(log);
  o.max_connections = 2;
  o.workers = 2;
  std::atomic<int> holding{0};
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  Server server(o, [&](const Request& r) {
    if (r.body == "hold") {
      ++holding;
      released.wait();
    }
    return "done " + r.body;
  });
  auto first = std::async(std::launch::async, ask, server.port(), "hold");
  auto second = std::async(std::launch::async, ask, server.port(), "hold");
  const bool both_held = eventually([&] { return holding == 2; });
  // The newcomer is closed unanswered; its client tries again until a
  // connection frees up.
  auto third = std::async(std::launch::async, ask, server.port(), "third");
  const bool refused = eventually([&] { return log.count("refused: connection limit reached") >= 1; });
  release.set_value();  // before any assertion can end the test
  ASSERT_TRUE(both_held);
  EXPECT_TRUE(refused);
  EXPECT_EQ(first.get(), "done hold");
  EXPECT_EQ(second.get(), "done hold");
  EXPECT_EQ(third.get(), "done third");
  EXPECT_EQ(ask(server.port(), "after"), "done after");
}

TEST(ServerLimitsTest, ClientThatNeverReadsItsReplyHoldsNoWorker) {
  REQUIRE_MUNGED();
  Lines log;
  ServerOptions o = options(log);
  o.workers = 1;  // were the reply written by the worker, everything would wait on it
  o.io_timeout = 3600s;
  const std::string big(32 << 20, 'x');  // far beyond the socket buffers
  std::atomic<bool> big_sealed{false};
  Server server(o, [&](const Request& r) {
    if (r.body == "big") {
      big_sealed = true;
      return big;
    }
    return "ECHO " + r.body;
  });
  std::string credential;
  Fd reader_that_never_reads = connect_from("127.0.0.1", server.port());
  const std::string frame =
      frame_bytes(MungeCodec(tofa_test::cluster_munged().socket()), "big", &credential);
  ASSERT_EQ(::send(reader_that_never_reads.get(), frame.data(), frame.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(frame.size()));
  ASSERT_TRUE(eventually([&] { return big_sealed.load(); }));
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(ask(server.port(), std::to_string(i)), "ECHO " + std::to_string(i));
  pollfd hangup{reader_that_never_reads.get(), POLLRDHUP, 0};
  ASSERT_EQ(::poll(&hangup, 1, 0), 0) << "the server gave up on the reply";
}

TEST(ServerLimitsTest, CapturedRequestReplayedIsRefused) {
  REQUIRE_MUNGED();
  Lines log;
  std::atomic<int> handled{0};
  Server server(options(log), [&](const Request& r) {
    ++handled;
    return "DONE " + r.body;
  });
  // A relay between a real client and the server records the request bytes.
  Fd listener(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(::bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener.get(), 1), 0);
  ASSERT_EQ(::getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  auto relay = std::async(std::launch::async, [&] {
    Fd from(::accept(listener.get(), nullptr, nullptr));
    Fd to = connect_from("127.0.0.1", server.port());
    const Deadline deadline(20s);
    char prefix[4];
    read_exact(from.get(), prefix, 4, deadline, -1, "relay");
    std::string credential(credential_length(prefix), '\0');
    read_exact(from.get(), &credential[0], credential.size(), deadline, -1, "relay");
    std::string body(6, '\0');  // "SUBMIT"
    read_exact(from.get(), &body[0], body.size(), deadline, -1, "relay");
    const std::string recorded = std::string(prefix, 4) + credential + body;
    write_all(to.get(), recorded, deadline, -1, "relay");
    std::string reply;
    char buf[4096];
    for (ssize_t n; (n = ::recv(to.get(), buf, sizeof buf, 0)) > 0;) reply.append(buf, n);
    write_all(from.get(), reply, deadline, -1, "relay");
    return std::make_pair(recorded, credential);
  });
  ClientOptions c = client();
  EXPECT_EQ(request("127.0.0.1", ntohs(addr.sin_port), "SUBMIT", c).body, "DONE SUBMIT");
  const auto [recorded, credential] = relay.get();
  Fd replay = connect_from("127.0.0.1", server.port());
  write_all(replay.get(), recorded, Deadline(20s), -1, "replay");
  EXPECT_EQ(reply_to(replay.get(), credential), "ERROR munge_decode: Replayed credential");
  EXPECT_EQ(handled, 1);
  EXPECT_EQ(log.count("munge_decode: Replayed credential"), 1);
}

TEST(ServerLimitsTest, ExpiredCredentialIsRefused) {
  REQUIRE_MUNGED();
  Lines log;
  std::atomic<int> handled{0};
  Server server(options(log), [&](const Request&) {
    ++handled;
    return std::string("DONE");
  });
  std::string credential;
  const std::string frame =
      frame_bytes(MungeCodec(tofa_test::cluster_munged().socket(), 1), "late", &credential);
  std::this_thread::sleep_for(3s);  // the credential lives 1 s
  Fd fd = connect_from("127.0.0.1", server.port());
  write_all(fd.get(), frame, Deadline(20s), -1, "write");
  EXPECT_EQ(reply_to(fd.get(), credential), "ERROR munge_decode: Expired credential");
  EXPECT_EQ(handled, 0);
}

TEST(ServerLimitsTest, StopClosesEverythingWhileAttackersAreConnected) {
  REQUIRE_MUNGED();
  Lines log;
  auto server = std::make_unique<Server>(options(log), echo);
  std::vector<Fd> idle = tofa_test::idle_connections(server->port(), 20);
  EXPECT_EQ(ask(server->port(), "x"), "ECHO x");
  server->stop();
  server->stop();
  for (const Fd& fd : idle) EXPECT_TRUE(closed_by_server(fd.get(), 20s));
  server.reset();
}

}  // namespace
