// tofa.conf service settings (common/service/tofa_conf.*) and tofa_conf_get.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "base/error.hpp"
#include "capi/tofa_service.h"
#include "fixtures.hpp"
#include "service/tofa_conf.hpp"

namespace {

using namespace tofa::service;

std::string parse_error(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_tofa_conf(in, "tofa.conf");
  } catch (const tofa::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(TofaConfTest, DefaultsWithoutServiceLines) {
  std::istringstream in("Dims=2x2\nNodeName=a[1-4]\n");
  const TofaConf conf = parse_tofa_conf(in, "tofa.conf");
  EXPECT_EQ(conf.topology.node_count(), 4);
  EXPECT_EQ(conf.topology.node_name(3), "a4");
  const ServiceSettings& s = conf.settings;
  EXPECT_EQ(s.service_host, "");
  EXPECT_EQ(s.service_port, 6830);
  EXPECT_EQ(s.heartbeat_interval, 10);
  EXPECT_EQ(s.heartbeat_timeout, 2);
  EXPECT_EQ(s.heartbeat_port_offset, 1000);
  EXPECT_EQ(s.outage_model.to_string(), "window:100");
  EXPECT_EQ(s.default_strategy, "auto");
  EXPECT_EQ(s.placement_budget_ms, 20);
  EXPECT_EQ(s.fault_cost.link_cost, 1);
  EXPECT_EQ(s.fault_cost.penalty, 100);
  EXPECT_EQ(s.max_graph_bytes, 67108864);
  EXPECT_EQ(s.max_graph_tasks, 65536);
  EXPECT_EQ(s.max_graphs_per_user, 64);
  EXPECT_EQ(s.placement_retention, 1000);
  EXPECT_EQ(s.max_connections, 512);
  EXPECT_EQ(s.max_connections_per_peer, 256);
  EXPECT_EQ(s.header_timeout, 2);
}

TEST(TofaConfTest, ConnectionLimitsAndHeaderTimeout) {
  std::istringstream in(
      "Dims=2x2\nNodeName=a[1-4]\n"
      "MaxConnections=64 maxconnectionsperpeer=8 HeaderTimeout=0.5\n");
  const ServiceSettings s = parse_tofa_conf(in, "tofa.conf").settings;
  EXPECT_EQ(s.max_connections, 64);
  EXPECT_EQ(s.max_connections_per_peer, 8);
  EXPECT_EQ(s.header_timeout, 0.5);
  EXPECT_EQ(setting_text(s, "MaxConnectionsPerPeer"), "8");
  EXPECT_EQ(setting_text(s, "headertimeout"), "0.5");
  EXPECT_EQ(parse_error("Dims=2x2\nMaxConnections=0\n"),
            "tofa.conf:2:16: bad MaxConnections '0': expected an integer 1..1048576");
  EXPECT_EQ(parse_error("MaxConnectionsPerPeer=many\n"),
            "tofa.conf:1:23: bad MaxConnectionsPerPeer 'many': expected an integer 1..1048576");
  EXPECT_EQ(parse_error("Dims=2x2\nNodeName=a[1-4]\n\nHeaderTimeout=-1\n"),
            "tofa.conf:4:15: bad HeaderTimeout '-1': expected seconds > 0");
}

TEST(TofaConfTest, LinkSharing) {
  std::istringstream split("Dims=2x2\nNodeName=a[1-4]\n");
  EXPECT_FALSE(parse_tofa_conf(split, "tofa.conf").settings.fault_cost.shared_links);
  std::istringstream shared("Dims=2x2\nNodeName=a[1-4]\nLinkSharing=shared\n");
  const ServiceSettings s = parse_tofa_conf(shared, "tofa.conf").settings;
  EXPECT_TRUE(s.fault_cost.shared_links);
  EXPECT_EQ(setting_text(s, "linksharing"), "shared");
  EXPECT_EQ(parse_error("LinkSharing=half\n"),
            "tofa.conf:1:13: bad LinkSharing 'half': expected split-duplex or shared");
}

TEST(TofaConfTest, ServiceKeysAnywhereCaseInsensitive) {
  std::istringstream in(
      "heartbeatinterval=0.25 HEARTBEATTIMEOUT=0.5  # fast\n"
      "Dims=2x2 CoresPerNode=2\n"
      "ServiceHost=ctl ServicePort=7000 OutageModel=ewma:0.2\n"
      "NodeName=a[1-4]\n"
      "DefaultStrategy=greedy LinkCost=2 FaultPenalty=50 MaxGraphBytes=1000\n"
      "PlacementBudget=2.5\n");
  const TofaConf conf = parse_tofa_conf(in, "tofa.conf");
  EXPECT_EQ(conf.topology.cores_per_node(), 2);
  EXPECT_EQ(conf.settings.heartbeat_interval, 0.25);
  EXPECT_EQ(conf.settings.heartbeat_timeout, 0.5);
  EXPECT_EQ(conf.settings.service_host, "ctl");
  EXPECT_EQ(conf.settings.service_port, 7000);
  EXPECT_EQ(conf.settings.outage_model.to_string(), "ewma:0.2");
  EXPECT_EQ(conf.settings.default_strategy, "greedy");
  EXPECT_EQ(conf.settings.fault_cost.link_cost, 2);
  EXPECT_EQ(conf.settings.fault_cost.penalty, 50);
  EXPECT_EQ(conf.settings.max_graph_bytes, 1000);
  EXPECT_EQ(conf.settings.placement_budget_ms, 2.5);
  EXPECT_EQ(setting_text(conf.settings, "placementbudget"), "2.5");
  EXPECT_EQ(parse_error("PlacementBudget=0\n"),
            "tofa.conf:1:17: bad PlacementBudget '0': expected milliseconds > 0");
}

TEST(TofaConfTest, ErrorsNameFileLineAndColumn) {
  // "ServicePort=" is 12 characters: the value starts in column 13.
  EXPECT_EQ(parse_error("Dims=2x2\nNodeName=a[1-4]\nServicePort=70000\n"),
            "tofa.conf:3:13: bad ServicePort '70000': expected a port number 0..65535");
  EXPECT_EQ(parse_error("Dims=2x2\n  Foo=1\n"),
            "tofa.conf:2:3: unknown key 'Foo': expected Dims, Wrap, CoresPerNode, NodeName, "
            "Coord, ServiceHost, ServicePort, ServiceBindAddress, RequestTimeout, ServiceWait, PlacementWait, "
            "HeartbeatInterval, HeartbeatTimeout, HeartbeatPortOffset, HeartbeatSessions, OutageModel, "
            "DefaultStrategy, PlacementBudget, LinkCost, FaultPenalty, InterferenceWeight, LinkSharing, MaxGraphBytes, MaxGraphTasks, "
            "MaxGraphsPerUser, PlacementRetention, MaxConnections, MaxConnectionsPerPeer, "
            "HeaderTimeout, MapWorker, MapMemoryLimit, MapTimeLimit, MapFailure, OutageThreshold or "
            "OnlyFailingNodesFit");
  EXPECT_EQ(parse_error("Dims=2x2 ServicePort=1\n"),
            "tofa.conf:1:10: 'ServicePort' belongs on its own line, not on a topology line");
  EXPECT_EQ(parse_error("ServicePort=1 Dims=2x2\n"),
            "tofa.conf:1:15: 'Dims' belongs on a topology line, not among service settings");
  EXPECT_EQ(parse_error("ServicePort=1\nDims=2x2\nNodeName=a[1-4]\nserviceport=2\n"),
            "tofa.conf:4:1: ServicePort is given twice (first on line 1)");
  EXPECT_EQ(parse_error("HeartbeatInterval=0\n"),
            "tofa.conf:1:19: bad HeartbeatInterval '0': expected seconds > 0");
  EXPECT_EQ(parse_error("OutageModel=ewma:2\n"),
            "tofa.conf:1:13: bad outage model 'ewma:2': expected 'window:N' (N >= 1) or "
            "'ewma:A' (0 < A <= 1)");
  EXPECT_EQ(parse_error("MaxGraphTasks=-1\n"),
            "tofa.conf:1:15: bad MaxGraphTasks '-1': expected a positive integer");
  EXPECT_EQ(parse_error("ServicePort\n"), "tofa.conf:1:1: expected 'Key=Value', found 'ServicePort'");
}

TEST(TofaConfTest, TopologyErrorsKeepTheirLineNumbers) {
  // Line 3 is the bad NodeName; the service lines 1 and 2 are blanked, not removed.
  EXPECT_EQ(parse_error("ServicePort=1\nDims=2x2\nNodeName=a[1-5]\n"),
            "tofa.conf:3:10: NodeName a[1-5] runs past the last coordinate of 2x2");
  EXPECT_EQ(parse_error("ServicePort=1\n"),
            "tofa.conf:1:0: expected 'Dims=AxBxC', found no Dims line");
}

TEST(TofaConfTest, SettingsWithoutTopologyForClients) {
  std::istringstream in("ServiceHost=ctl\nDims=9x9\nNodeName=too[1-3]\n");  // topology incomplete
  EXPECT_EQ(parse_service_settings(in, "c").service_host, "ctl");
  EXPECT_EQ(setting_text(ServiceSettings(), "heartbeatportoffset"), "1000");
  EXPECT_THROW(setting_text(ServiceSettings(), "Dims"), tofa::Error);
}

TEST(TofaConfTest, CApiConfGet) {
  tofa_test::TempFile conf("ServicePort=7001\nHeartbeatInterval=0.5\nDims=2\nNodeName=x[1-2]\n");
  char value[64];
  char err[256];
  ASSERT_EQ(tofa_conf_get(conf.path().c_str(), "serviceport", value, sizeof value, err,
                          sizeof err),
            TOFA_OK)
      << err;
  EXPECT_STREQ(value, "7001");
  ASSERT_EQ(tofa_conf_get(conf.path().c_str(), "HeartbeatInterval", value, sizeof value, err,
                          sizeof err),
            TOFA_OK);
  EXPECT_STREQ(value, "0.5");
  ASSERT_EQ(tofa_conf_get(conf.path().c_str(), "HeartbeatPortOffset", value, sizeof value, err,
                          sizeof err),
            TOFA_OK);
  EXPECT_STREQ(value, "1000");  // default
  char tiny[3];
  EXPECT_EQ(tofa_conf_get(conf.path().c_str(), "ServicePort", tiny, sizeof tiny, err, sizeof err),
            TOFA_ERROR);
  EXPECT_STREQ(err, "ServicePort: value of 4 bytes does not fit in 3");
  EXPECT_EQ(tofa_conf_get("/nonexistent/tofa.conf", "ServicePort", value, sizeof value, err,
                          sizeof err),
            TOFA_ERROR);
  EXPECT_STREQ(err, "cannot open '/nonexistent/tofa.conf': No such file or directory");
}

}  // namespace
