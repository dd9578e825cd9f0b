// tofactl's formatting and its defaults from slurm.conf (tools/tofactl_*).
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "base/error.hpp"
#include "fixtures.hpp"
#include "links_svg.hpp"
#include "tofactl_format.hpp"
#include "tofactl_slurm_conf.hpp"

namespace {

TEST(TofactlFormatTest, NodesTableHasSinfoLikeColumns) {
  const std::string reply =
      "OK count=2\n"
      "node name=n1 state=responding p=0 source=window:100 heartbeat=0 answer=0 answered=5 "
      "missed=0\n"
      "node name=node-long state=not_responding p=0.25 source=override heartbeat=0 answer=0 "
      "answered=3 missed=1\n";
  // Column width = longest cell + 2 spaces; the last column is not padded.
  EXPECT_EQ(tofactl::format_nodes(reply),
            "NODE       STATE           P(OUTAGE)  LAST_HEARTBEAT  ANSWERED  MISSED  SOURCE\n"
            "n1         responding      0.0000     never           5         0       window:100\n"
            "node-long  not_responding  0.2500     never           3         1       override\n");
}

TEST(TofactlFormatTest, GraphsAndJob) {
  EXPECT_EQ(tofactl::format_graphs("OK count=1\ngraph id=g1 uid=1000 name=my%20comm.mat tasks=4 "
                                   "bytes=32 uploaded=0 used=0\n"),
            "ID  UID   NAME         TASKS  BYTES  UPLOADED  LAST_USED\n"
            "g1  1000  my comm.mat  4      32     never     never\n");
  // A file name with a terminal escape (percent-encoded on the wire, as
  // every field) reaches root's terminal escaped.
  EXPECT_EQ(tofactl::format_graphs("OK count=1\ngraph id=g2 uid=1000 name=%1B]0;x%07%1B[2J.mat tasks=4 "
                                   "bytes=32 uploaded=0 used=0\n"),
            "ID  UID   NAME                     TASKS  BYTES  UPLOADED  LAST_USED\n"
            "g2  1000  \\x1B]0;x\\x07\\x1B[2J.mat  4      32     never     never\n");
  const std::string job = tofactl::format_job(
      "OK job=7 uid=1000 graph=g1 time=0 strategy=tofa nodes=n5,n6 tasks=2 nodes_used=2 "
      "total_bytes=100 hop_bytes=100 average_hops=1 hop_variance=0 max_hops=1 dilation=1 "
      "max_link_load=50 links_used=2 abort_probability=0");
  EXPECT_EQ(job.rfind("job: 7\nuid: 1000\ngraph: g1\nstrategy: tofa\ntime: never\ntasks: 2\n", 0),
            0u)
      << job;
  EXPECT_NE(job.find("TASK  NODE\n0     n5\n1     n6\n"), std::string::npos) << job;
  EXPECT_THROW(tofactl::format_nodes("OK count=1\nbogus line\n"), tofa::Error);
}

TEST(TofactlLinksSvgTest, RepliesBecomeLoadsPerLinkAndOutagePerNode) {
  const tofa::Topology torus = tofa::Topology::from_spec("torus:4x4x2");
  const std::vector<double> loads = tofactl::link_loads_of(
      "OK count=3\nlink from=n0 to=n1 bytes=1000 jobs=2\nlink from=n0 to=n3 bytes=10 jobs=1\n"
      "link from=n5 to=n21 bytes=500 jobs=1\n",
      torus);
  EXPECT_EQ(loads[torus.link_id({0, 1, 0, +1})], 1000);
  EXPECT_EQ(loads[torus.link_id({0, 3, 0, -1})], 10);  // around the ring
  EXPECT_EQ(loads[torus.link_id({5, 21, 2, +1})], 500);
  double total = 0;
  for (double bytes : loads) total += bytes;
  EXPECT_EQ(total, 1510);
  EXPECT_THROW(tofactl::link_loads_of("OK count=1\nlink from=n0 to=n5 bytes=1 jobs=1\n", torus),
               tofa::Error);  // no neighbours
  const std::vector<double> outage = tofactl::outage_of(
      "OK count=2\nnode name=n7 state=responding p=0.25 source=override heartbeat=0 answer=0 "
      "answered=1 missed=0\nnode name=gone state=responding p=1 source=override heartbeat=0 "
      "answer=0 answered=1 missed=0\n",
      torus);
  EXPECT_EQ(outage[7], 0.25);
  EXPECT_EQ(outage[0], 0.0);

  std::ostringstream svg;
  tofa::write_links_svg(svg, torus, loads, outage, "links");
  const std::string text = svg.str();
  EXPECT_NE(text.find("<title>n0 -> n1: 1000 bytes</title></line>"), std::string::npos);
  EXPECT_NE(text.find("<title>n0 -> n3: 10 bytes</title></line>"), std::string::npos);
  EXPECT_NE(text.find("<title>n5 -> n21: 500 bytes</title></circle>"), std::string::npos)
      << "a link between planes is a dot";
  EXPECT_NE(text.find("stroke='red'><title>n7: P(outage) = 0.25</title>"), std::string::npos);
  std::size_t lines = 0;
  for (std::size_t at = text.find("<line"); at != std::string::npos; at = text.find("<line", at + 1)) ++lines;
  EXPECT_EQ(lines, 2u) << "unloaded links are not drawn";

  const tofa::Topology big = tofa::Topology::from_spec("torus:64x32x32");
  std::ostringstream refused;
  EXPECT_THROW(tofa::write_links_svg(refused, big, std::vector<double>(big.link_slot_count()), {}, "x"),
               tofa::Error);
}

TEST(TofactlSlurmConfTest, DefaultsFromEnvironmentAndSlurmConf) {
  EXPECT_EQ(tofactl::default_tofa_conf("/x/t.conf", "/etc/other/slurm.conf"), "/x/t.conf");
  EXPECT_EQ(tofactl::default_tofa_conf(nullptr, "/opt/cl/slurm.conf"), "/opt/cl/tofa.conf");
  EXPECT_EQ(tofactl::default_tofa_conf("", nullptr), "/etc/slurm/tofa.conf");
  tofa_test::TempFile slurm(
      "# cluster\nClusterName=c\nSlurmctldHost=vm(127.0.0.1)  # primary\nSlurmctldHost=backup\n"
      "authinfo=cred_expire=60,socket=/run/m/munge.sock\n");
  const tofactl::SlurmDefaults d = tofactl::read_slurm_defaults(slurm.path());
  EXPECT_EQ(d.controller_address, "127.0.0.1");
  EXPECT_EQ(d.munge_socket, "/run/m/munge.sock");
  tofa_test::TempFile plain("SlurmctldHost=ctl\n");
  EXPECT_EQ(tofactl::read_slurm_defaults(plain.path()).controller_address, "ctl");
  EXPECT_EQ(tofactl::read_slurm_defaults("/nonexistent").controller_address, "");
}

}  // namespace
