// The session heartbeat datagrams and the responder's session table.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "net/hmac.hpp"
#include "net/sha256.hpp"
#include "service/heartbeat_datagram.hpp"
#include "service/responder_sessions.hpp"

namespace {

using namespace tofa::service;

const std::string kKey(kSessionKeyBytes, 'k');

TEST(HeartbeatDatagram, HmacMatchesRfc4231TestCase2) {
  EXPECT_EQ(tofa::net::to_hex(tofa::net::hmac_sha256("Jefe", "what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(HeartbeatDatagram, ProbeRoundTripsAndOnlyItsKeyAuthenticatesIt) {
  const std::string text = make_probe("t12", 77, kKey);
  const auto datagram = parse_datagram(text);
  ASSERT_TRUE(datagram);
  EXPECT_EQ(datagram->kind, DatagramKind::probe);
  EXPECT_EQ(datagram->node, "t12");
  EXPECT_EQ(datagram->round, 77u);
  EXPECT_TRUE(authentic(*datagram, kKey));
  EXPECT_FALSE(authentic(*datagram, std::string(kSessionKeyBytes, 'x')));
  // Changing any signed part breaks the MAC.
  Datagram other_round = *datagram;
  other_round.round = 78;
  EXPECT_FALSE(authentic(other_round, kKey));
  Datagram as_alive = *datagram;
  as_alive.kind = DatagramKind::alive;
  EXPECT_FALSE(authentic(as_alive, kKey));
}

TEST(HeartbeatDatagram, MalformedDatagramsAreDropped) {
  const std::string mac(64, 'a');
  for (const std::string& text : std::vector<std::string>{
           std::string(), std::string("TOFAHB1"), "TOFAHB1 PROBE t1 5", "TOFAHB1 PROBE t1 x5 " + mac,
        "TOFAHB2 PROBE t1 5 " + mac, "TOFAHB1 HELLO t1 5 " + mac, "TOFAHB1 PROBE t1 5 " + mac + " x",
        "TOFAHB1 PROBE t1 5 abc", "TOFAHB1 NOSESSION t1 5 " + mac,
        "TOFAHB1 PROBE t1 99999999999999999999 " + mac, "TOFAHB1 PROBE  5 " + mac,
        std::string(kMaxDatagramBytes + 1, 'T')})
    EXPECT_FALSE(parse_datagram(text)) << text;
  EXPECT_TRUE(parse_datagram("TOFAHB1 NOSESSION t1 5"));
}

TEST(HeartbeatDatagram, KeyPayloadIsBoundToItsNode) {
  const std::string payload = session_key_payload("t1", kKey);
  EXPECT_EQ(key_from_payload("t1", payload), kKey);
  EXPECT_FALSE(key_from_payload("t2", payload));
  EXPECT_FALSE(key_from_payload("t1", payload + "x"));
}

TEST(ResponderSessionsTest, AnswersAuthenticProbesAndRefusesReplays) {
  ResponderSessions sessions({"t1", "t2"});
  // No key yet: the service is told so (and nothing else).
  EXPECT_EQ(sessions.answer(make_probe("t1", 3, kKey), {}), make_no_session("t1", 3));
  EXPECT_FALSE(sessions.answer(make_probe("t9", 3, kKey), {}));  // not served
  sessions.set_key("t1", kKey);
  EXPECT_EQ(sessions.answer(make_probe("t1", 3, kKey), {}), make_alive("t1", 3, kKey));
  EXPECT_EQ(sessions.answer(make_probe("t1", 3, kKey), {}), make_alive("t1", 3, kKey))
      << "a resent probe of the same round is answered again";
  EXPECT_EQ(sessions.answer(make_probe("t1", 5, kKey), {}), make_alive("t1", 5, kKey));
  EXPECT_FALSE(sessions.answer(make_probe("t1", 4, kKey), {})) << "an older round is a replay";
  EXPECT_EQ(sessions.answer(make_probe("t1", 6, std::string(kSessionKeyBytes, 'x')), {}),
            make_no_session("t1", 6))
      << "a probe under another key (a late offer re-keyed us): ask for a new key";
  EXPECT_FALSE(sessions.answer(make_alive("t1", 7, kKey), {})) << "only probes are answered";
  // The failure model may silence a node.
  const AnswerFilter down = [](const std::string& node, std::uint64_t) { return node != "t1"; };
  EXPECT_FALSE(sessions.answer(make_probe("t1", 8, kKey), down));
}

}  // namespace
