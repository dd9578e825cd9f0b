// Tests for the munge-authenticated transport (common/net). They use two
// private munged daemons with different keys (munged_fixture.hpp).
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "munged_fixture.hpp"
#include "net/client.hpp"
#include "net/frame.hpp"
#include "net/munge_codec.hpp"
#include "net/server.hpp"
#include "net/sha256.hpp"
#include "net/socket_io.hpp"

namespace {

using namespace tofa::net;
using namespace std::chrono_literals;

using tofa_test::PrivateMunged;

PrivateMunged* g_munge = nullptr;  // the "cluster" munged everyone uses
PrivateMunged* g_other = nullptr;  // a munged with a different key

class MungeEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    g_munge = &tofa_test::cluster_munged();
    g_other = &tofa_test::foreign_munged();
  }
};
const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new MungeEnvironment);

#define REQUIRE_MUNGED() \
  if (!g_munge->ok() || !g_other->ok()) GTEST_SKIP() << "cannot start a private munged"

/// Collects the server's error log lines (worker threads write, the test reads).
class LogLines {
 public:
  std::function<void(const std::string&)> sink() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(line);
    };
  }
  std::vector<std::string> lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

ServerOptions local_options(LogLines& log) {
  ServerOptions options;
  options.host = "127.0.0.1";
  options.munge_socket = g_munge->socket();
  options.log_error = log.sink();
  return options;
}

ClientOptions client_options() {
  ClientOptions options;
  options.munge_socket = g_munge->socket();
  return options;
}

std::string echo(const Request& r) { return "ECHO " + r.body; }

std::string be32(std::uint32_t v) {
  return {char(v >> 24), char(v >> 16 & 0xff), char(v >> 8 & 0xff), char(v & 0xff)};
}

/// A connection on which the test speaks raw bytes.
Fd raw_connect(int port) { return connect_tcp("127.0.0.1", port, Deadline(5s)); }

/// Everything the server sends until it closes the connection.
std::string read_to_eof(int fd) {
  std::string all;
  char buf[4096];
  Deadline deadline(10s);
  for (;;) {
    try {
      read_exact(fd, buf, 1, deadline, -1, "raw read");
    } catch (const tofa::Error& e) {
      std::string what = e.what();  // unread input makes the server's close a reset
      if (what.find("connection closed") != std::string::npos ||
          what.find("Connection reset") != std::string::npos)
        return all;
      throw;
    }
    all += buf[0];
  }
}

/// Waits until the listening socket on `port` has no connection left to
/// accept (the accept queue length is rx_queue in /proc/net/tcp).
void wait_until_accepted(int port) {
  char local[32];
  std::snprintf(local, sizeof local, "0100007F:%04X", port);
  for (int attempt = 0; attempt < 5000; ++attempt) {
    std::ifstream table("/proc/net/tcp");
    std::string line;
    bool queued = false;
    while (std::getline(table, line)) {
      // "sl local_address rem_address st tx_queue:rx_queue ..."; st 0A = LISTEN
      if (line.find(std::string(local) + " 00000000:0000 0A ") == std::string::npos) continue;
      std::size_t colon = line.find(':', line.find(" 0A ") + 4);
      queued = std::stoul(line.substr(colon + 1, 8), nullptr, 16) > 0;
    }
    if (!queued) return;
    usleep(1000);
  }
}

/// The frame bytes a correct client would send for `body`, and its credential.
std::string request_bytes(const std::string& body, std::string* credential,
                          std::uint64_t announced_length) {
  std::string seal = make_seal(FrameKind::request, body, no_binding());
  for (int i = 0; i < 8; ++i) seal[9 + i] = char(announced_length >> (56 - 8 * i) & 0xff);
  *credential = MungeCodec(g_munge->socket()).encode(seal);
  return be32(std::uint32_t(credential->size())) + *credential + body;
}

std::string read_reply(int fd, const std::string& credential) {
  return receive_frame(fd, MungeCodec(g_munge->socket()), FrameKind::reply,
                       binding_for(credential), 1 << 20, Deadline(10s), -1)
      .body;
}

// ---------------------------------------------------------------- SHA-256

TEST(Sha256Test, FipsExamples) {
  // Digests published in FIPS 180-2 appendix B.
  EXPECT_EQ(to_hex(sha256("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(to_hex(sha256(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  EXPECT_EQ(to_hex(sha256("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256Test, PaddingBoundaries) {
  // 55 bytes pad into one block, 56 need a second, 64 fill a block exactly.
  // Expected values from coreutils `sha256sum`.
  EXPECT_EQ(to_hex(sha256(std::string(55, 'x'))),
            "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072");
  EXPECT_EQ(to_hex(sha256(std::string(56, 'x'))),
            "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e");
  EXPECT_EQ(to_hex(sha256(std::string(64, 'x'))),
            "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
}

// ---------------------------------------------------------------- munge and seal

TEST(MungeCodecTest, RoundTripCarriesPayloadAndSender) {
  REQUIRE_MUNGED();
  MungeCodec codec(g_munge->socket());
  std::string payload("bin\0ary", 7);
  MungeDecoded d = codec.decode(codec.encode(payload));
  EXPECT_EQ(d.payload, payload);
  EXPECT_EQ(d.uid, getuid());
  EXPECT_EQ(d.gid, getgid());
}

TEST(MungeCodecTest, RejectsReplayForeignKeyAndGarbage) {
  REQUIRE_MUNGED();
  MungeCodec codec(g_munge->socket());
  std::string cred = codec.encode("x");
  codec.decode(cred);
  EXPECT_THROW(
      try { codec.decode(cred); } catch (const tofa::Error& e) {
        EXPECT_STREQ(e.what(), "munge_decode: Replayed credential");
        throw;
      },
      tofa::Error);
  EXPECT_THROW(
      try { MungeCodec(g_other->socket()).decode(codec.encode("x")); } catch (const tofa::Error& e) {
        EXPECT_STREQ(e.what(), "munge_decode: Invalid credential");
        throw;
      },
      tofa::Error);
  EXPECT_THROW(codec.decode("MUNGE:garbage:"), tofa::Error);
}

TEST(MungeCodecTest, MissingDaemonNamesTheSocket) {
  EXPECT_THROW(
      try { MungeCodec("/nonexistent/munge.socket").encode("x"); } catch (const tofa::Error& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/munge.socket"), std::string::npos)
            << e.what();
        throw;
      },
      tofa::Error);
}

TEST(FrameTest, SealLayout) {
  std::string seal = make_seal(FrameKind::reply, "abc", std::string(32, '\x07'));
  ASSERT_EQ(seal.size(), kSealBytes);  // 8 magic + 1 kind + 8 length + 32 digest + 32 binding
  EXPECT_EQ(seal.substr(0, 8), "TOFANET1");
  EXPECT_EQ(seal[8], 'R');
  EXPECT_EQ(seal.substr(9, 8), std::string("\0\0\0\0\0\0\0\x03", 8));  // length 3, big-endian
  EXPECT_EQ(seal.substr(17, 32), sha256("abc"));
  EXPECT_EQ(seal.substr(49), std::string(32, '\x07'));
}

// ---------------------------------------------------------------- server and client

TEST(NetTest, RoundTripReportsUidGidAndPeer) {
  REQUIRE_MUNGED();
  LogLines log;
  Request seen;
  Server server(local_options(log), [&](const Request& r) {
    seen = r;
    return std::string("PONG");
  });
  ASSERT_GT(server.port(), 0);
  Reply reply = request("127.0.0.1", server.port(), "PING", client_options());
  EXPECT_EQ(reply.body, "PONG");
  EXPECT_EQ(reply.uid, getuid());
  EXPECT_EQ(reply.gid, getgid());
  EXPECT_EQ(seen.body, "PING");
  EXPECT_EQ(seen.uid, getuid());
  EXPECT_EQ(seen.gid, getgid());
  EXPECT_EQ(seen.peer.rfind("127.0.0.1:", 0), 0u) << seen.peer;
  EXPECT_TRUE(log.lines().empty());
}

TEST(NetTest, BodiesBeyondMungeLimitAndEmptyBodies) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), echo);
  // munged refuses credentials over ~1 MiB; the body travels beside the seal.
  std::string big(3 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = char(i * 7919 % 251);
  EXPECT_EQ(request("127.0.0.1", server.port(), big, client_options()).body, "ECHO " + big);
  EXPECT_EQ(request("127.0.0.1", server.port(), "", client_options()).body, "ECHO ");
}

TEST(NetTest, HugeLengthPrefixIsRejectedAndServerKeepsServing) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), echo);
  Fd fd = raw_connect(server.port());
  write_all(fd.get(), "\xff\xff\xff\xff", Deadline(5s), -1, "raw write");
  EXPECT_EQ(read_to_eof(fd.get()), "");  // closed, no reply: nothing was authenticated
  ASSERT_EQ(log.lines().size(), 1u);
  EXPECT_EQ(log.lines()[0].substr(log.lines()[0].find(": ") + 2),
            "credential length 4294967295 is outside 1..4096");
  EXPECT_EQ(request("127.0.0.1", server.port(), "x", client_options()).body, "ECHO x");
}

TEST(NetTest, GarbageIsRejectedAndServerKeepsServing) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), echo);
  std::mt19937 random(12345);
  for (int round = 0; round < 5; ++round) {
    std::string junk(1000, '\0');
    for (char& c : junk) c = char(random());
    Fd fd = raw_connect(server.port());
    write_all(fd.get(), junk, Deadline(5s), -1, "raw write");
    shutdown(fd.get(), SHUT_WR);
    read_to_eof(fd.get());
  }
  EXPECT_EQ(log.lines().size(), 5u);
  // A plausible length followed by text that is not a credential: munge
  // rejects it and the peer is told why, in a reply bound to what it sent.
  Fd fd = raw_connect(server.port());
  write_all(fd.get(), be32(16) + std::string(16, 'A'), Deadline(5s), -1, "raw write");
  std::string reply = read_reply(fd.get(), std::string(16, 'A'));
  EXPECT_EQ(reply.rfind("ERROR munge_decode: ", 0), 0u) << reply;
  EXPECT_EQ(request("127.0.0.1", server.port(), "y", client_options()).body, "ECHO y");
}

TEST(NetTest, TruncatedFrameIsRejected) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), echo);
  Fd fd = raw_connect(server.port());
  write_all(fd.get(), be32(200) + "MUNGE:0123", Deadline(5s), -1, "raw write");
  shutdown(fd.get(), SHUT_WR);
  EXPECT_EQ(read_to_eof(fd.get()), "");
  ASSERT_EQ(log.lines().size(), 1u);
  EXPECT_NE(log.lines()[0].find(": reading credential: connection closed after 10 of 200 bytes"),
            std::string::npos)
      << log.lines()[0];
}

TEST(NetTest, CredentialFromAnotherMungeKeyIsRejected) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), echo);
  ClientOptions foreign = client_options();
  foreign.munge_socket = g_other->socket();
  try {
    request("127.0.0.1", server.port(), "PING", foreign);
    FAIL() << "a foreign credential was accepted";
  } catch (const tofa::Error& e) {
    // The server rejects the request and answers with its own key, which the
    // foreign client cannot verify either.
    EXPECT_EQ(std::string(e.what()), "request to 127.0.0.1:" + std::to_string(server.port()) +
                                         ": munge_decode: Invalid credential");
  }
  ASSERT_EQ(log.lines().size(), 1u);
  EXPECT_NE(log.lines()[0].find(": munge_decode: Invalid credential"), std::string::npos);
}

TEST(NetTest, ReplayedAndTamperedRequestsAreRejected) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), echo);
  std::string credential;
  std::string frame = request_bytes("PING", &credential, 4);
  {
    Fd fd = raw_connect(server.port());
    write_all(fd.get(), frame, Deadline(5s), -1, "raw write");
    EXPECT_EQ(read_reply(fd.get(), credential), "ECHO PING");
  }
  {
    Fd fd = raw_connect(server.port());
    write_all(fd.get(), frame, Deadline(5s), -1, "raw write");
    EXPECT_EQ(read_reply(fd.get(), credential), "ERROR munge_decode: Replayed credential");
  }
  {
    std::string tampered = request_bytes("PING", &credential, 4);
    tampered.replace(tampered.size() - 4, 4, "KILL");
    Fd fd = raw_connect(server.port());
    write_all(fd.get(), tampered, Deadline(5s), -1, "raw write");
    EXPECT_EQ(read_reply(fd.get(), credential),
              "ERROR body does not match its credential (SHA-256 differs)");
  }
}

TEST(NetTest, OversizedBodyIsRefusedBeforeItIsRead) {
  REQUIRE_MUNGED();
  LogLines log;
  ServerOptions options = local_options(log);
  options.max_body = 1024;
  options.io_timeout = 60s;  // were the body awaited, the reply below would not come
  Server server(options, echo);
  std::string credential;
  std::string header = request_bytes("", &credential, std::uint64_t(1) << 30);
  Fd fd = raw_connect(server.port());
  write_all(fd.get(), header, Deadline(5s), -1, "raw write");
  EXPECT_EQ(read_reply(fd.get(), credential),
            "ERROR body of 1073741824 bytes exceeds the limit of 1024 bytes");
}

TEST(NetTest, ClientRejectsRepliesNotBoundToItsRequest) {
  REQUIRE_MUNGED();
  // A fake server answers with a valid credential that either answers some
  // other request or is not a reply at all.
  Fd listener(socket(AF_INET, SOCK_STREAM, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(listener.get(), 4), 0);
  ASSERT_EQ(getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const int port = ntohs(addr.sin_port);
  auto fake = std::async(std::launch::async, [&] {
    MungeCodec codec(g_munge->socket());
    for (FrameKind kind : {FrameKind::reply, FrameKind::request}) {
      Fd conn(accept(listener.get(), nullptr, nullptr));
      receive_frame(conn.get(), codec, FrameKind::request, no_binding(), 1024, Deadline(10s), -1);
      send_frame(conn.get(), codec, kind, "PONG", binding_for("someone else's credential"),
                 Deadline(10s), -1);
    }
  });
  const std::string where = "request to 127.0.0.1:" + std::to_string(port) + ": ";
  for (const char* expected : {"reply does not answer this request",
                               "expected a reply frame, got kind 'Q'"}) {
    try {
      request("127.0.0.1", port, "PING", client_options());
      ADD_FAILURE() << "accepted a reply that should fail with: " << expected;
    } catch (const tofa::Error& e) {
      EXPECT_EQ(std::string(e.what()), where + expected);
    }
  }
  fake.get();
}

TEST(NetTest, ClientRefusesOversizedBody) {
  ClientOptions options;
  options.max_body = 8;
  try {
    request("127.0.0.1", 1, "123456789", options);
    FAIL();
  } catch (const tofa::Error& e) {
    EXPECT_STREQ(e.what(), "request to 127.0.0.1:1: body of 9 bytes exceeds the limit of 8 bytes");
  }
}

TEST(NetTest, HandlerExceptionsBecomeErrorReplies) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), [](const Request& r) -> std::string {
    if (r.body == "std") throw std::runtime_error("no graph named g1");
    if (r.body == "int") throw 42;
    return "fine";
  });
  EXPECT_EQ(request("127.0.0.1", server.port(), "std", client_options()).body,
            "ERROR no graph named g1");
  EXPECT_EQ(request("127.0.0.1", server.port(), "int", client_options()).body,
            "ERROR unknown exception in request handler");
  EXPECT_EQ(request("127.0.0.1", server.port(), "ok", client_options()).body, "fine");
}

TEST(NetTest, SilentClientIsDroppedAfterTimeout) {
  REQUIRE_MUNGED();
  LogLines log;
  ServerOptions options = local_options(log);
  options.header_timeout = 200ms;
  Server server(options, echo);
  Fd fd = raw_connect(server.port());
  EXPECT_EQ(read_to_eof(fd.get()), "");
  ASSERT_EQ(log.lines().size(), 1u);
  EXPECT_NE(log.lines()[0].find(": reading credential length: timed out"), std::string::npos)
      << log.lines()[0];
}

TEST(NetTest, ClientTimesOutOnSilentServer) {
  REQUIRE_MUNGED();
  // A listening socket nobody accepts from: the kernel completes the connect
  // and buffers the request, but no reply ever comes.
  Fd listener(socket(AF_INET, SOCK_STREAM, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ASSERT_EQ(bind(listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(listener.get(), 4), 0);
  ASSERT_EQ(getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len), 0);
  int port = ntohs(addr.sin_port);
  ClientOptions client = client_options();
  client.timeout = 200ms;
  try {
    request("127.0.0.1", port, "PING", client);
    FAIL();
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()), "request to 127.0.0.1:" + std::to_string(port) +
                                         ": reading credential length: timed out");
  }
}

TEST(NetTest, StopIsIdempotentAndInterruptsSlowClients) {
  REQUIRE_MUNGED();
  LogLines log;
  ServerOptions options = local_options(log);
  options.io_timeout = 3600s;
  auto server = std::make_unique<Server>(options, echo);
  int port = server->port();
  EXPECT_EQ(request("127.0.0.1", port, "a", client_options()).body, "ECHO a");
  Fd idle = raw_connect(port);
  write_all(idle.get(), std::string("\0\0", 2), Deadline(5s), -1, "raw write");  // half a prefix
  wait_until_accepted(port);
  server->stop();
  server->stop();
  EXPECT_EQ(read_to_eof(idle.get()), "");
  ASSERT_EQ(log.lines().size(), 1u);
  EXPECT_NE(log.lines()[0].find(": reading credential length: cancelled"), std::string::npos)
      << log.lines()[0];
  try {
    request("127.0.0.1", port, "b", client_options());
    FAIL();
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "connect to 127.0.0.1:" + std::to_string(port) + ": Connection refused");
  }
  server.reset();  // destructor after stop()
}

TEST(NetTest, WorkersServeConnectionsConcurrently) {
  REQUIRE_MUNGED();
  LogLines log;
  ServerOptions options = local_options(log);
  options.workers = 2;
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
  Server server(options, [&](const Request& r) {
    if (r.body == "slow") {
      entered.set_value();
      released.wait();
    }
    return "done " + r.body;
  });
  auto slow = std::async(std::launch::async, [&] {
    ClientOptions o = client_options();
    o.timeout = 60s;
    return request("127.0.0.1", server.port(), "slow", o).body;
  });
  entered.get_future().wait();
  // With a single serving thread this would time out behind "slow".
  ClientOptions quick = client_options();
  quick.timeout = 5s;
  std::string quick_reply;
  try {
    quick_reply = request("127.0.0.1", server.port(), "quick", quick).body;
  } catch (const tofa::Error& e) {
    quick_reply = e.what();
  }
  release.set_value();  // before any assertion can end the test
  EXPECT_EQ(quick_reply, "done quick");
  EXPECT_EQ(slow.get(), "done slow");
}

TEST(NetTest, ExpectedServerUidIsEnforced) {
  REQUIRE_MUNGED();
  LogLines log;
  Server server(local_options(log), echo);
  ClientOptions options = client_options();
  options.expected_uid = getuid();
  EXPECT_EQ(request("127.0.0.1", server.port(), "a", options).body, "ECHO a");
  options.expected_uid = getuid() + 1;
  try {
    request("127.0.0.1", server.port(), "a", options);
    FAIL();
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()), "request to 127.0.0.1:" + std::to_string(server.port()) +
                                         ": reply came from uid " + std::to_string(getuid()) +
                                         ", expected uid " + std::to_string(getuid() + 1));
  }
}

TEST(NetTest, BindFailureIsReported) {
  REQUIRE_MUNGED();
  LogLines log;
  Server first(local_options(log), echo);
  ServerOptions options = local_options(log);
  options.port = first.port();
  try {
    Server second(options, echo);
    FAIL();
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "bind 127.0.0.1:" + std::to_string(first.port()) + ": Address already in use");
  }
}

}  // namespace
