#include <gtest/gtest.h>

#include "base/printable.hpp"
#include "net/log_limiter.hpp"

namespace {

using tofa::net::LogLimiter;
using namespace std::chrono_literals;

TEST(LogLimiterTest, KeepsABurstPerKindThenSumsUpTheRest) {
  LogLimiter limiter(3, 10s);
  const auto t0 = LogLimiter::Clock::time_point{} + 100s;
  for (int port = 0; port < 3; ++port) {
    const std::string line = "request from 127.0.0.1:" + std::to_string(40000 + port) + ": timed out";
    EXPECT_EQ(limiter.admit(line, t0), std::vector<std::string>{line});
  }
  for (int port = 3; port < 1000; ++port)
    EXPECT_TRUE(limiter.admit("request from 127.0.0.1:" + std::to_string(40000 + port) + ": timed out", t0 + 1s).empty());
  // Another kind has its own budget.
  EXPECT_EQ(limiter.admit("accept: too many open files", t0 + 2s).size(), 1u);
  // After the interval: the count of what was left out, then the line.
  const std::vector<std::string> later = limiter.admit("request from 10.0.0.9:5: timed out", t0 + 11s);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(later[0], "997 more like the next line in the last 11 s, not logged");
  EXPECT_EQ(later[1], "request from 10.0.0.9:5: timed out");
}

TEST(LogLimiterTest, ManyKindsShareOneBudgetAndMemoryStaysBounded) {
  LogLimiter limiter(1, 10s);
  const auto t0 = LogLimiter::Clock::time_point{} + 100s;
  std::size_t admitted = 0;
  for (int i = 0; i < 5000; ++i)  // each a kind of its own (letters, not digits)
    admitted += limiter.admit("peer " + std::string(1, char('a' + i % 26)) +
                                  std::string(1, char('a' + i / 26 % 26)) +
                                  std::string(1, char('a' + i / 676 % 26)) + ": bad frame",
                              t0)
                    .size();
  EXPECT_EQ(admitted, 257u) << "256 kinds, then one shared budget of 1 for the rest";
}

TEST(PrintableTest, EscapesControlCharactersAndKeepsUtf8) {
  EXPECT_EQ(tofa::printable("graph.mat"), "graph.mat");
  EXPECT_EQ(tofa::printable("a\x1b]0;owned\x07" "b"), "a\\x1B]0;owned\\x07b");
  EXPECT_EQ(tofa::printable("line\nnext\r\x7f"), "line\\x0Anext\\x0D\\x7F");
  EXPECT_EQ(tofa::printable("caf\xc3\xa9"), "caf\xc3\xa9") << "UTF-8 letters stay";
  EXPECT_EQ(tofa::printable("x\xc2\x9b" "2J"), "x\\xC2\\x9B2J") << "C1 CSI as UTF-8";
}

}  // namespace
