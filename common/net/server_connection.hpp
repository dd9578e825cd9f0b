// One client connection as the server's I/O thread tracks it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "net/frame.hpp"
#include "net/reply_writer.hpp"
#include "net/request_reader.hpp"
#include "net/socket_io.hpp"

namespace tofa::net {

// epoll tags of the two descriptors that are not connections.
constexpr std::uint64_t kListenerTag = 0;
constexpr std::uint64_t kWakeTag = 1;

struct ServerConnection {
  enum class Phase {
    header,     ///< reading length and credential (evictable, header deadline)
    verifying,  ///< a worker has the credential
    body,       ///< reading the body (body deadline)
    handling,   ///< a worker runs the handler and seals the reply
    replying,   ///< writing the reply (reply deadline)
  };

  std::uint64_t id = 0;
  Fd fd;
  std::string peer;  ///< "ADDRESS:PORT"
  Phase phase = Phase::header;
  RequestReader reader;
  ReplyWriter writer;
  std::optional<std::chrono::steady_clock::time_point> deadline;  ///< mirrored in deadlines_
  std::uint32_t events = 0;                                        ///< the epoll interest
  uid_t uid = 0;
  gid_t gid = 0;
  SealedBody sealed;

  bool reading() const { return phase == Phase::header || phase == Phase::body; }
};

}  // namespace tofa::net
