// The service over the network with real munge credentials (a private
// munged, munged_fixture.hpp), real responders on 127.0.0.1, and the C API.
#include <gtest/gtest.h>
#include <unistd.h>

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/error.hpp"
#include "capi/tofa_service.h"
#include "fixtures.hpp"
#include "munged_fixture.hpp"
#include "net/datagram_socket.hpp"
#include "net/frame.hpp"
#include "net/munge_codec.hpp"
#include "net/server.hpp"
#include "net/socket_io.hpp"
#include "raw_peers.hpp"
#include "service/client.hpp"
#include "service/heartbeat_datagram.hpp"
#include "service/heartbeat_loop.hpp"
#include "service/placement_store.hpp"
#include "service/responder.hpp"
#include "service/responder_sessions.hpp"
#include "service/service.hpp"

namespace {

using namespace tofa::service;
using namespace std::chrono_literals;

#define REQUIRE_MUNGED()                                                          \
  if (!tofa_test::cluster_munged().ok() || !tofa_test::foreign_munged().ok()) \
  GTEST_SKIP() << "cannot start a private munged"

// Heartbeat every 0.1 s; the responder port is the "slurmd port" itself
// (offset 0) so the test can use ephemeral ports.
const char* const kConf =
    "Dims=2x2\nNodeName=r[1-4]\n"
    "ServicePort=0 ServiceBindAddress=127.0.0.1\n"
    "HeartbeatInterval=0.1 HeartbeatTimeout=1 HeartbeatPortOffset=0\n"
    "MaxGraphBytes=4000 RequestTimeout=10\n";

const char* const kRing = "0 1 100\n1 2 100\n2 3 100\n3 0 100\n";

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/tofa-svc-XXXXXX";
    if (!mkdtemp(pattern)) std::abort();
    path_ = pattern;
  }
  ~TempDir() { std::system(("rm -rf " + path_).c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

class Log {
 public:
  Logger sink() {
    return [this](int level, const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back(std::to_string(level) + " " + line);
    };
  }
  bool contains(const std::string& part) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const std::string& line : lines_)
      if (line.find(part) != std::string::npos) return true;
    return false;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

/// Polls `done` until it holds or 30 s pass; asserts on the outcome only.
bool eventually(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return done();
}

class ServiceNetworkTest : public ::testing::Test {
 protected:
  std::unique_ptr<Service> start_service() {
    ServiceOptions options;
    options.conf_path = conf_.path();
    options.state_dir = dir_.path();
    options.admin_uid = geteuid();
    options.munge_socket = tofa_test::cluster_munged().socket();
    options.log = log_.sink();
    return std::make_unique<Service>(options);
  }
  ClientContext client(const Service& service, const std::string& munge_socket = "") {
    return client_context(conf_.path(), "127.0.0.1:" + std::to_string(service.port()),
                          munge_socket.empty() ? tofa_test::cluster_munged().socket()
                                               : munge_socket);
  }
  std::unique_ptr<Responder> responder(const std::string& node, uid_t service_uid, int port = 0) {
    ResponderOptions options;
    options.node_names = {node};
    options.bind_address = "127.0.0.1";
    options.port = port;
    options.munge_socket = tofa_test::cluster_munged().socket();
    options.service_uid = service_uid;
    return std::make_unique<Responder>(options, log_.sink());
  }

  tofa_test::TempFile conf_{kConf + tofa_test::map_worker_line(), ".conf"};
  TempDir dir_;
  Log log_;
};

TEST_F(ServiceNetworkTest, NodeWhoseHeartbeatsStopGetsAnOutageProbability) {
  REQUIRE_MUNGED();
  auto service = start_service();
  std::vector<std::unique_ptr<Responder>> responders;
  std::vector<NodeAddress> nodes;
  for (const char* name : {"r1", "r2", "r3"}) {
    responders.push_back(responder(name, geteuid()));
    nodes.push_back({name, "127.0.0.1", responders.back()->port()});
  }
  service->state().set_nodes(nodes);
  auto answered_twice = [&] {
    for (const NodeReport& n : service->state().nodes())
      if (n.name != "r4" && n.answered < 2) return false;
    return true;
  };
  ASSERT_TRUE(eventually(answered_twice));
  for (const char* name : {"r1", "r2", "r3"}) EXPECT_EQ(service->state().node_outage(name), 0);

  responders[1]->stop();
  ASSERT_TRUE(eventually([&] { return service->state().node_outage("r2") > 0; }));
  EXPECT_EQ(service->state().node_outage("r1"), 0);
  EXPECT_EQ(service->state().node_outage("r3"), 0);
  std::map<std::string, std::string> states;
  for (const NodeReport& n : service->state().nodes()) states[n.name] = n.state;
  EXPECT_EQ(states["r1"], "responding");
  EXPECT_EQ(states["r2"], "not_responding");
  EXPECT_EQ(states["r4"], "unpolled");
  std::printf("heartbeat round for 3 responders (one down): %.2f ms\n",
              service->heartbeats().last_round_seconds() * 1e3);

  // The placement now avoids r2: 2 tasks, 1 slot per node, candidates r1..r4;
  // tofa maps onto the first run of 2 consecutive fault-free candidates, r3 r4.
  tofa_test::TempFile pair("0 1 10\n", ".mat");
  const std::string id = upload_graph_file(client(*service), pair.path()).id;
  PlaceRequest place;
  place.graph_id = id;
  place.tasks = 2;
  place.strategy = "tofa";
  place.candidates = "r1,r2,r3,r4";
  place.slots_per_node = 1;
  std::vector<std::string> placed = request_placement(client(*service), place);
  std::sort(placed.begin(), placed.end());
  EXPECT_EQ(placed, (std::vector<std::string>{"r3", "r4"}));
}

NodeReport report_of(Service& service, const std::string& name) {
  for (const NodeReport& n : service.state().nodes())
    if (n.name == name) return n;
  return {};
}

TEST_F(ServiceNetworkTest, SessionHeartbeatsGoOverUdpAndSurviveAResponderRestart) {
  REQUIRE_MUNGED();
  if (geteuid() != 0) GTEST_SKIP() << "session keys are readable by root only";
  auto service = start_service();
  std::vector<std::unique_ptr<Responder>> responders;
  std::vector<NodeAddress> nodes;
  for (const char* name : {"r1", "r2"}) {
    responders.push_back(responder(name, geteuid()));
    nodes.push_back({name, "127.0.0.1", responders.back()->port()});
  }
  service->state().set_nodes(nodes);
  ASSERT_TRUE(eventually([&] { return service->heartbeats().sessions() == 2; }));
  const std::uint64_t answered = report_of(*service, "r1").answered;
  ASSERT_TRUE(eventually([&] { return report_of(*service, "r1").answered >= answered + 3; }));

  // A restarted responder has no key: it says so, gets a TCP heartbeat and a
  // new key, and at most the round it was away counts as a miss.
  const int port = responders[0]->port();
  const std::uint64_t missed = report_of(*service, "r1").missed;
  responders[0]->stop();
  responders[0] = responder("r1", geteuid(), port);
  const std::uint64_t after_restart = report_of(*service, "r1").answered;
  ASSERT_TRUE(eventually([&] { return report_of(*service, "r1").answered >= after_restart + 3; }));
  EXPECT_EQ(service->heartbeats().sessions(), 2u);
  EXPECT_LE(report_of(*service, "r1").missed, missed + 2);
  EXPECT_EQ(service->state().node_outage("r2"), 0);
}

TEST_F(ServiceNetworkTest, ANodeWhoseDatagramsAreBlockedStaysOnTcpWithoutMisses) {
  REQUIRE_MUNGED();
  if (geteuid() != 0) GTEST_SKIP() << "session keys are readable by root only";
  // A responder that takes session keys over TCP but whose UDP never gets
  // anything (a firewall): no UDP socket at all behind its port.
  ResponderOptions options;
  options.node_names = {"r1"};
  options.service_uid = geteuid();
  ResponderSessions sessions(options.node_names);
  tofa::net::MungeCodec codec(tofa_test::cluster_munged().socket());
  tofa::net::ServerOptions server;
  server.host = "127.0.0.1";
  server.munge_socket = tofa_test::cluster_munged().socket();
  tofa::net::Server firewalled(server, [&](const tofa::net::Request& r) {
    return answer_heartbeat(options, &sessions, codec, r.body, r.uid);
  });
  auto service = start_service();
  service->state().set_nodes({{"r1", "127.0.0.1", firewalled.port()}});
  ASSERT_TRUE(eventually([&] { return report_of(*service, "r1").answered >= 8; }));
  EXPECT_EQ(report_of(*service, "r1").missed, 0u) << "silent datagrams fell back to TCP in the same round";
  EXPECT_EQ(service->heartbeats().sessions(), 0u) << "after two such rounds the node stays on TCP";
  EXPECT_EQ(service->state().node_outage("r1"), 0);
}

TEST_F(ServiceNetworkTest, ForgedDatagramAnswersAreNotAnswers) {
  REQUIRE_MUNGED();
  if (geteuid() != 0) GTEST_SKIP() << "session keys are readable by root only";
  auto service = start_service();
  auto real = responder("r1", geteuid());
  const int port = real->port();
  service->state().set_nodes({{"r1", "127.0.0.1", port}});
  ASSERT_TRUE(eventually([&] { return service->heartbeats().sessions() == 1; }));
  ASSERT_EQ(service->state().node_outage("r1"), 0);

  // The node goes down and something else answers its probes, well formed,
  // for the right round, under a key it guessed.
  real->stop();
  real.reset();
  tofa::net::Fd forger = tofa::net::bind_datagram_socket("127.0.0.1", port, 1 << 16);
  std::atomic<bool> stop{false};
  std::thread answering([&] {
    while (!stop) {
      pollfd ready{forger.get(), POLLIN, 0};
      if (::poll(&ready, 1, 50) <= 0) continue;
      tofa::net::DatagramAddress from;
      while (auto text = tofa::net::receive_datagram(forger.get(), kMaxDatagramBytes, &from))
        if (auto probe = parse_datagram(*text))
          tofa::net::send_datagram(
              forger.get(), make_alive(probe->node, probe->round, std::string(32, 'g')), from);
    }
  });
  EXPECT_TRUE(eventually([&] { return service->state().node_outage("r1") > 0; }));
  stop = true;
  answering.join();
}

TEST_F(ServiceNetworkTest, RequestsCarryTheCallersUidAndStateSurvivesRestart) {
  REQUIRE_MUNGED();
  tofa_test::TempFile graph(kRing, ".mat");
  std::string id;
  {
    auto service = start_service();
    const Message ping = call(client(*service), "PING");
    EXPECT_EQ(ping.field("uid"), std::to_string(geteuid()));
    EXPECT_EQ(ping.field("admin"), "1");
    const UploadedGraph uploaded = upload_graph_file(client(*service), graph.path());
    id = uploaded.id;
    EXPECT_EQ(uploaded.task_count, 4);
    PlaceRequest place;
    place.graph_id = id;
    place.job = 42;
    place.tasks = 4;
    place.strategy = "default-slurm";
    place.candidates = "r[1-4]";
    place.slots_per_node = 1;
    const auto nodes = request_placement(client(*service), place);
    EXPECT_EQ(nodes, (std::vector<std::string>{"r1", "r2", "r3", "r4"}));
    service->stop();
    service->stop();  // idempotent
  }
  auto service = start_service();
  EXPECT_EQ(fetch_job_placement(client(*service), 42).nodes,
            (std::vector<std::string>{"r1", "r2", "r3", "r4"}));
  EXPECT_EQ(fetch_job_placement(client(*service), 42).graph_id, id);
  EXPECT_EQ(call(client(*service), "GRAPHS").field("count"), "1");
  EXPECT_EQ(service->state().graph_task_count(id, geteuid()), 4);
}

TEST_F(ServiceNetworkTest, ForeignCredentialIsRejectedAndChangesNothing) {
  REQUIRE_MUNGED();
  auto service = start_service();
  tofa_test::TempFile graph(kRing, ".mat");
  try {
    upload_graph_file(client(*service, tofa_test::foreign_munged().socket()), graph.path());
    ADD_FAILURE() << "a credential of another munge key was accepted";
  } catch (const tofa::Error& e) {
    // The service answers "ERROR munge_decode: Invalid credential" sealed with
    // its own key, which the foreign client cannot verify in turn.
    EXPECT_NE(std::string(e.what()).find("Invalid credential"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(eventually([&] { return log_.contains("munge_decode: Invalid credential"); }));
  EXPECT_EQ(call(client(*service), "GRAPHS").field("count"), "0");
}

TEST_F(ServiceNetworkTest, OversizedGraphIsRefusedWithAClearMessage) {
  REQUIRE_MUNGED();
  auto service = start_service();
  tofa_test::TempFile big(std::string(4001, '1'), ".mat");
  try {
    upload_graph_file(client(*service), big.path());
    ADD_FAILURE() << "oversized graph accepted";
  } catch (const tofa::Error& e) {
    EXPECT_EQ(std::string(e.what()), big.path() +
                                         ": 4001 bytes exceed the limit of 4000 bytes "
                                         "(MaxGraphBytes in tofa.conf)");
  }
  // Sent anyway (a client that skips the check): the service refuses before parsing.
  try {
    call(client(*service), "UPLOAD_GRAPH name=x.mat\n" + std::string(4001, '1'));
    ADD_FAILURE() << "oversized graph accepted";
  } catch (const tofa::Error& e) {
    EXPECT_STREQ(e.what(), "x.mat: 4001 bytes exceed the limit of 4000 bytes (MaxGraphBytes in "
                           "tofa.conf)");
  }
}

TEST_F(ServiceNetworkTest, ResponderAnswersOnlyTheServiceUid) {
  REQUIRE_MUNGED();
  auto strict = responder("r1", geteuid() + 4242);
  HeartbeatOptions options;
  options.timeout = 5;
  options.munge_socket = tofa_test::cluster_munged().socket();
  options.responder_uids = {geteuid()};
  std::string why;
  EXPECT_EQ(send_heartbeat({"r1", "127.0.0.1", strict->port()}, options, &why),
            HeartbeatOutcome::missed);
  EXPECT_EQ(why, "heartbeat from uid " + std::to_string(geteuid()) +
                     " refused: only uid " + std::to_string(geteuid() + 4242) +
                     " (the TOFA service) is answered");
  auto good = responder("r1", geteuid());
  EXPECT_EQ(send_heartbeat({"r1", "127.0.0.1", good->port()}, options, &why),
            HeartbeatOutcome::answered)
      << why;
  EXPECT_EQ(send_heartbeat({"r2", "127.0.0.1", good->port()}, options, &why),
            HeartbeatOutcome::missed);
  EXPECT_EQ(why, "heartbeat for r2 reached node r1");
}

TEST_F(ServiceNetworkTest, IdleAndSlowConnectionsDoNotSilenceAResponder) {
  REQUIRE_MUNGED();
  auto node = responder("r1", geteuid());
  std::vector<tofa::net::Fd> idle = tofa_test::idle_connections(node->port(), 50);
  tofa_test::SlowDrip slow(node->port(), 5, 100ms);
  HeartbeatOptions options;
  options.timeout = 2;  // HeartbeatTimeout's default
  options.munge_socket = tofa_test::cluster_munged().socket();
  options.responder_uids = {geteuid()};
  std::string why;
  for (int round = 0; round < 5; ++round)
    EXPECT_EQ(send_heartbeat({"r1", "127.0.0.1", node->port()}, options, &why),
              HeartbeatOutcome::answered)
        << why;
}

/// A fake responder that answers every heartbeat with a reply sealed by
/// another munge key (a forgery), until destroyed.
class ForgingResponder {
 public:
  ForgingResponder() : listener_(tofa_test::listen_loopback(&port_)) {
    thread_ = std::thread([this] {
      const tofa::net::MungeCodec ours(tofa_test::cluster_munged().socket());
      const tofa::net::MungeCodec foreign(tofa_test::foreign_munged().socket());
      while (!stop_) {
        pollfd p{listener_.get(), POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        tofa::net::Fd conn(::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK));
        try {
          std::string credential;
          tofa::net::receive_frame(conn.get(), ours, tofa::net::FrameKind::request,
                                   tofa::net::no_binding(), 4096, tofa::net::Deadline(5s), -1,
                                   &credential);
          tofa::net::send_frame(conn.get(), foreign, tofa::net::FrameKind::reply, "ALIVE r2",
                                tofa::net::binding_for(credential), tofa::net::Deadline(5s), -1);
        } catch (const std::exception&) {
        }
      }
    });
  }
  ~ForgingResponder() {
    stop_ = true;
    thread_.join();
  }
  int port() const { return port_; }

 private:
  int port_ = 0;
  tofa::net::Fd listener_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST_F(ServiceNetworkTest, ForgedReplyIsASecurityEventNotAMissNorAnAnswer) {
  REQUIRE_MUNGED();
  ForgingResponder forger;
  HeartbeatOptions options;
  options.timeout = 5;
  options.munge_socket = tofa_test::cluster_munged().socket();
  options.responder_uids = {geteuid()};
  std::string why;
  EXPECT_EQ(send_heartbeat({"r2", "127.0.0.1", forger.port()}, options, &why),
            HeartbeatOutcome::rejected);
  EXPECT_NE(why.find("munge_decode: Invalid credential"), std::string::npos) << why;

  auto node = responder("r1", geteuid());
  options.interval = 0.05;
  std::mutex mutex;
  std::vector<std::pair<std::string, bool>> seen;
  long rounds = 0;
  HeartbeatLoop loop(
      options,
      [&] {
        return std::vector<HeartbeatTarget>{{"r1", "127.0.0.1", node->port()},
                                            {"r2", "127.0.0.1", forger.port()}};
      },
      [&](const std::vector<std::pair<std::string, bool>>& outcomes, double, long) {
        std::lock_guard<std::mutex> lock(mutex);
        seen.insert(seen.end(), outcomes.begin(), outcomes.end());
        ++rounds;
      },
      log_.sink());
  ASSERT_TRUE(eventually([&] {
    std::lock_guard<std::mutex> lock(mutex);
    return rounds >= 3;
  }));
  loop.stop();
  for (const auto& [name, answered] : seen) {
    EXPECT_EQ(name, "r1");  // r2 is counted neither way
    EXPECT_TRUE(answered);
  }
  EXPECT_TRUE(log_.contains("security: heartbeat to r2"));
}

/// A node choice for tofa_service_choose_healthy_first: records its calls,
/// leaves `left_out` nodes out of the first and succeeds as told.
struct ChoiceScript {
  ChoiceScript(int left_out, bool healthy_fits, bool all_fit)
      : left_out(left_out), healthy_fits(healthy_fits), all_fit(all_fit) {}
  int left_out;
  bool healthy_fits, all_fit;
  std::vector<int> calls;  // with_failing of each call
  double threshold_seen = -1;

  static int choose(int with_failing, int* left_out, void* arg) {
    auto* script = static_cast<ChoiceScript*>(arg);
    script->calls.push_back(with_failing);
    // The shims ask the service while choosing: no lock may be held here.
    script->threshold_seen = tofa_service_outage_threshold();
    if (!with_failing) *left_out = script->left_out;
    return (with_failing ? script->all_fit : script->healthy_fits) ? TOFA_OK : TOFA_ERROR;
  }
  tofa_choice_t run(char* note, size_t size) {
    return tofa_service_choose_healthy_first(&ChoiceScript::choose, this, note, size);
  }
};

TEST(HealthyFirstChoice, WithoutTheServiceAJobThatNeedsFailingNodesWaits) {
  ASSERT_EQ(tofa_service_running(), 0);
  char note[256] = "stale";
  ChoiceScript fits{0, true, false};
  EXPECT_EQ(fits.run(note, sizeof note), TOFA_CHOICE_MADE);
  EXPECT_EQ(fits.calls, std::vector<int>{0});
  EXPECT_STREQ(note, "");

  ChoiceScript nothing_left_out{0, false, true};
  EXPECT_EQ(nothing_left_out.run(note, sizeof note), TOFA_CHOICE_NONE);
  EXPECT_EQ(nothing_left_out.calls, std::vector<int>{0});  // all candidates were tried already

  ChoiceScript needs_failing{2, false, true};
  EXPECT_EQ(needs_failing.run(note, sizeof note), TOFA_CHOICE_WAITS);
  EXPECT_EQ(needs_failing.calls, std::vector<int>{0});
  EXPECT_STREQ(note, "waits: it does not fit without the 2 candidate node(s) above OutageThreshold=1");
}

TEST_F(ServiceNetworkTest, OnlyFailingNodesFitDecidesTheSecondChoice) {
  REQUIRE_MUNGED();
  const std::string munge = tofa_test::cluster_munged().socket();
  char err[512] = "", note[256] = "";
  for (const std::string policy : {"wait", "use"}) {
    tofa_test::TempFile conf{kConf + tofa_test::map_worker_line() +
                                 "OutageThreshold=0.3 OnlyFailingNodesFit=" + policy + "\n",
                             ".conf"};
    ASSERT_EQ(tofa_service_start(conf.path().c_str(), dir_.path().c_str(), geteuid(),
                                 munge.c_str(), nullptr, err, sizeof err),
              TOFA_OK)
        << err;
    ChoiceScript needs_failing{1, false, true};
    const tofa_choice_t choice = needs_failing.run(note, sizeof note);
    EXPECT_DOUBLE_EQ(needs_failing.threshold_seen, 0.3);
    if (policy == "wait") {
      EXPECT_EQ(choice, TOFA_CHOICE_WAITS);
      EXPECT_EQ(needs_failing.calls, std::vector<int>{0});
    } else {
      EXPECT_EQ(choice, TOFA_CHOICE_MADE);
      EXPECT_EQ(needs_failing.calls, (std::vector<int>{0, 1}));
      EXPECT_STREQ(note, "may use 1 node(s) above OutageThreshold=0.3 (OnlyFailingNodesFit=use)");
      ChoiceScript fits_nowhere{1, false, false};
      EXPECT_EQ(fits_nowhere.run(note, sizeof note), TOFA_CHOICE_NONE);
      EXPECT_EQ(fits_nowhere.calls, (std::vector<int>{0, 1}));
    }
    tofa_service_stop();
  }
}

TEST_F(ServiceNetworkTest, CApiServiceResponderAndClients) {
  REQUIRE_MUNGED();
  char err[512] = "";
  const std::string munge = tofa_test::cluster_munged().socket();
  ASSERT_EQ(tofa_service_start(conf_.path().c_str(), dir_.path().c_str(), geteuid(), munge.c_str(),
                               nullptr, err, sizeof err),
            TOFA_OK)
      << err;
  EXPECT_EQ(tofa_service_start(conf_.path().c_str(), dir_.path().c_str(), geteuid(),
                               munge.c_str(), nullptr, err, sizeof err),
            TOFA_ERROR);
  EXPECT_STREQ(err, "the TOFA service is already running");
  EXPECT_EQ(tofa_service_running(), 1);
  const std::string host = "127.0.0.1:" + std::to_string(tofa_service_port());

  ASSERT_EQ(tofa_responder_start(conf_.path().c_str(), "r1", "127.0.0.1", 0, munge.c_str(), geteuid(), nullptr, err,
                                 sizeof err),
            TOFA_OK)
      << err;
  EXPECT_EQ(tofa_responder_running(), 1);

  tofa_test::TempFile graph(kRing, ".mat");
  char* id = nullptr;
  int tasks = 0;
  ASSERT_EQ(tofa_client_upload_graph(conf_.path().c_str(), host.c_str(), munge.c_str(),
                                     graph.path().c_str(), &id, &tasks, err, sizeof err),
            TOFA_OK)
      << err;
  EXPECT_EQ(tasks, 4);
  int info_tasks = 0;
  EXPECT_EQ(tofa_service_graph_info(id, geteuid(), &info_tasks, err, sizeof err), TOFA_OK);
  EXPECT_EQ(info_tasks, 4);
  // geteuid() + 1 is neither the owner nor an admin (root or admin_uid = geteuid()).
  EXPECT_EQ(tofa_service_graph_info(id, geteuid() + 1, &info_tasks, err, sizeof err), TOFA_ERROR);
  EXPECT_EQ(std::string(err), std::string("unknown graph id ") + id);

  char* placement = nullptr;
  tofa_metrics_t metrics{};
  // The node bounds reach the placement: default-slurm fills r1 with all 4
  // tasks, -N 2 asks for two nodes.
  ASSERT_EQ(tofa_service_place_job(0, geteuid(), id, "default-slurm", "r1:4,r2:4", 0, 2, 2,
                                   nullptr, &placement, nullptr, err, sizeof err),
            TOFA_OK)
      << err;
  const std::string two_nodes = placement;
  std::free(placement);
  EXPECT_NE(two_nodes.find("r1"), std::string::npos) << two_nodes;
  EXPECT_NE(two_nodes.find("r2"), std::string::npos) << two_nodes;
  ASSERT_EQ(tofa_service_place_job(77, geteuid(), id, "default-slurm", "r4,r3,r2,r1", 1, 0, 0,
                                   nullptr, &placement, &metrics, err, sizeof err),
            TOFA_OK)
      << err;
  EXPECT_STREQ(placement, "r4,r3,r2,r1");
  EXPECT_EQ(metrics.tasks, 4);
  std::free(placement);
  char* placed_graph = nullptr;
  ASSERT_EQ(tofa_client_job_placement(conf_.path().c_str(), host.c_str(), munge.c_str(), 77,
                                      &placement, &placed_graph, err, sizeof err),
            TOFA_OK)
      << err;
  EXPECT_STREQ(placement, "r4,r3,r2,r1");
  EXPECT_STREQ(placed_graph, id);
  std::free(placement);
  std::free(placed_graph);
  const auto place = [&](tofa_place_request_t request) {
    request.graph_id = id;
    return tofa_client_place(conf_.path().c_str(), host.c_str(), munge.c_str(), &request,
                             &placement, err, sizeof err);
  };
  tofa_place_request_t request{};
  request.task_count = 3;
  EXPECT_EQ(place(request), TOFA_ERROR);
  EXPECT_EQ(std::string(err), std::string("graph ") + id + " has 4 tasks, the request asks for 3");
  EXPECT_EQ(placement, nullptr);
  // --tofa-param values reach the strategy over the network; files are refused.
  request.task_count = 4;
  request.strategy = "anneal";
  request.parameters = "attempts=0";
  EXPECT_EQ(place(request), TOFA_ERROR);
  EXPECT_NE(std::string(err).find("attempts"), std::string::npos) << err;
  request.parameters = "attempts=2";
  EXPECT_EQ(place(request), TOFA_OK) << err;
  std::free(placement);
  // A node count (srun -N 2) reaches the service: 4 tasks on exactly 2 nodes.
  request.strategy = nullptr;
  request.parameters = nullptr;
  request.candidates = "r1:4,r2:4,r3:4,r4:4";
  request.min_nodes = request.max_nodes = 2;
  ASSERT_EQ(place(request), TOFA_OK) << err;
  std::set<std::string> spanned;
  for (const std::string& node : split_nodes(placement)) spanned.insert(node);
  EXPECT_EQ(spanned.size(), 2u) << placement;
  std::free(placement);
  request.candidates = nullptr;
  request.min_nodes = request.max_nodes = 0;
  request.strategy = "rubik";
  request.parameters = "spec=/etc/shadow";
  EXPECT_EQ(place(request), TOFA_ERROR);
  EXPECT_EQ(std::string(err),
            "--tofa-param 'spec=/etc/shadow': the service reads no user's files; map with a "
            "Rubik spec offline (tofa-map, tofa-rubik)");

  // The scheduling pass's calls, without text: the node choice as tasks per
  // listed candidate, then the strategy queued on the allocation so listed.
  const tofa_candidate_t candidates[] = {{"r1", 0, 2}, {"r2", 0, 2}, {"r3", 0, 2}, {"r4", 0, 2}};
  unsigned chosen[4] = {};
  ASSERT_EQ(tofa_service_choose_nodes_from(79, geteuid(), id, candidates, 4, 0, 0, chosen, err,
                                           sizeof err),
            TOFA_OK)
      << err;
  std::vector<tofa_candidate_t> allocation;
  for (int i = 0; i < 4; ++i)
    if (chosen[i]) allocation.push_back({candidates[i].name, 1, chosen[i]});
  EXPECT_EQ(chosen[0] + chosen[1] + chosen[2] + chosen[3], 4u);
  EXPECT_EQ(allocation.size(), 2u);
  // Another job's choice counts its own tasks only (the table of tasks per
  // node is kept between calls and must start clear).
  unsigned again[4] = {};
  ASSERT_EQ(tofa_service_choose_nodes_from(80, geteuid(), id, candidates, 4, 0, 0, again, err,
                                           sizeof err),
            TOFA_OK)
      << err;
  EXPECT_EQ(again[0] + again[1] + again[2] + again[3], 4u);
  EXPECT_EQ(tofa_service_forget_job(80, err, sizeof err), TOFA_OK) << err;
  ASSERT_EQ(tofa_service_map_later(79, allocation.data(), static_cast<int>(allocation.size()),
                                   "greedy", nullptr, err, sizeof err),
            TOFA_OK)
      << err;
  tofa_service_wait_for_mappings();
  EXPECT_EQ(tofa_service_placement_pending(79), 0);
  ASSERT_EQ(tofa_service_job_placement(79, &placement, err, sizeof err), TOFA_OK) << err;
  std::set<std::string> mapped_on;
  for (const std::string& node : split_nodes(placement)) mapped_on.insert(node);
  std::free(placement);
  EXPECT_EQ(mapped_on, (std::set<std::string>{allocation[0].name, allocation[1].name}));
  const tofa_candidate_t unknown[] = {{"r9", 1, 2}};
  EXPECT_EQ(tofa_service_map_later(79, unknown, 1, nullptr, nullptr, err, sizeof err), TOFA_ERROR);
  EXPECT_STREQ(err, "candidate node r9 is not in the topology");
  const tofa_candidate_t unnamed[] = {{nullptr, 1, 2}};
  EXPECT_EQ(tofa_service_map_later(79, unnamed, 1, nullptr, nullptr, err, sizeof err), TOFA_ERROR);
  EXPECT_STREQ(err, "tofa_service_map_later: a candidate without a name");

  char* reply = nullptr;
  const std::string bad = "SET_OUTAGE node=r9 p=0.1";
  EXPECT_EQ(tofa_client_request(conf_.path().c_str(), host.c_str(), munge.c_str(), bad.c_str(),
                                bad.size(), &reply, err, sizeof err),
            TOFA_ERROR);
  EXPECT_STREQ(err, "unknown node r9");
  std::free(id);

  tofa_service_stop();
  tofa_service_stop();
  EXPECT_EQ(tofa_service_running(), 0);
  EXPECT_EQ(tofa_service_job_placement(77, &placement, err, sizeof err), TOFA_ERROR);
  EXPECT_STREQ(err, "the TOFA service is not running");
  ASSERT_EQ(tofa_service_start(conf_.path().c_str(), dir_.path().c_str(), geteuid(), munge.c_str(),
                               nullptr, err, sizeof err),
            TOFA_OK)
      << err;
  ASSERT_EQ(tofa_service_job_placement(77, &placement, err, sizeof err), TOFA_OK) << err;
  EXPECT_STREQ(placement, "r4,r3,r2,r1");
  std::free(placement);
  EXPECT_EQ(tofa_service_job_placement(78, &placement, err, sizeof err), TOFA_ERROR);
  EXPECT_STREQ(err, "no placement recorded for job 78");
  tofa_service_stop();
  tofa_responder_stop();
  tofa_responder_stop();
  EXPECT_EQ(tofa_responder_running(), 0);
}

}  // namespace
