#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "base/error.hpp"
#include "munged_fixture.hpp"
#include "net/server.hpp"
#include "net/socket_io.hpp"
#include "service/client.hpp"
#include "service/user_slots.hpp"

namespace {

using tofa::service::UserSlots;

TEST(UserSlotsTest, OnePlacementPerUserAtATime) {
  UserSlots slots(1);
  {
    UserSlots::Slot first = slots.take(1000);
    EXPECT_TRUE(first.held());
    EXPECT_FALSE(slots.take(1000).held()) << "a second one of the same user waits its turn";
    EXPECT_TRUE(slots.take(1001).held()) << "another user is not affected";
    EXPECT_EQ(slots.in_use(1000), 1u);
    EXPECT_EQ(slots.in_use(1001), 0u) << "released when the slot is gone";
  }
  EXPECT_TRUE(slots.take(1000).held());
  UserSlots two(2);
  UserSlots::Slot a = two.take(7), b = two.take(7);
  EXPECT_TRUE(a.held() && b.held());
  EXPECT_FALSE(two.take(7).held());
}

#define REQUIRE_MUNGED()                                                 \
  do {                                                                   \
    if (!tofa_test::cluster_munged().ok()) GTEST_SKIP() << "no munged";  \
  } while (0)

int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t size = sizeof address;
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  ::close(fd);
  return ntohs(address.sin_port);
}

tofa::service::ClientContext context_for(int port, double service_wait) {
  tofa::service::ClientContext context;
  context.host = "127.0.0.1";
  context.port = port;
  context.munge_socket = tofa_test::cluster_munged().socket();
  context.settings.request_timeout = 5;
  context.settings.service_wait = service_wait;
  context.wait_for_service = true;
  return context;
}

std::unique_ptr<tofa::net::Server> server_on(int port, tofa::net::Handler handler) {
  tofa::net::ServerOptions options;
  options.host = "127.0.0.1";
  options.port = port;
  options.munge_socket = tofa_test::cluster_munged().socket();
  return std::make_unique<tofa::net::Server>(options, std::move(handler));
}

TEST(ClientRetryTest, WaitsForAServiceThatIsRestarting) {
  REQUIRE_MUNGED();
  const int port = free_port();
  EXPECT_THROW(tofa::service::call_raw(context_for(port, 0), "PING"), tofa::net::ConnectError)
      << "without ServiceWait a refused connection is final";
  std::unique_ptr<tofa::net::Server> server;
  std::thread restart([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    server = server_on(port, [](const tofa::net::Request&) { return std::string("OK back"); });
  });
  EXPECT_EQ(tofa::service::call_raw(context_for(port, 30), "PING"), "OK back");
  restart.join();
}

TEST(ClientRetryTest, TriesAgainWhileTheSameUsersPlacementRuns) {
  REQUIRE_MUNGED();
  std::atomic<int> calls{0};
  auto server = server_on(0, [&](const tofa::net::Request&) {
    return ++calls <= 2 ? std::string("ERROR busy: a placement of yours is still running")
                        : std::string("OK placed");
  });
  EXPECT_EQ(tofa::service::call_raw(context_for(server->port(), 30), "PLACE"), "OK placed");
  EXPECT_EQ(calls.load(), 3);
  calls = 0;
  try {
    tofa::service::call_raw(context_for(server->port(), 0), "PLACE");
    ADD_FAILURE() << "busy without ServiceWait must be an error";
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("busy: ", 0), 0u) << e.what();
  }
}

}  // namespace
