#include "net/client.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "base/error.hpp"
#include "net/frame.hpp"
#include "net/munge_codec.hpp"
#include "net/socket_io.hpp"

namespace tofa::net {
namespace {

/// A server at its connection limit closes newcomers before reading them
/// (admission.hpp): such a connection is tried again, with a new credential,
/// after a growing pause, while the deadline allows. A connection closed
/// once the reply has begun, or the server's "ERROR" reply, is final.
Frame exchange_with_retries(const std::string& host, int port, const std::string& body,
                            const MungeCodec& codec, const ClientOptions& options,
                            const Deadline& deadline) {
  std::chrono::milliseconds pause{10};
  for (;;) {
    // Sealed before connecting: the credential follows the connect at once,
    // so a server under a flood of idle connections sees it authenticate fast.
    const EncodedFrame sent = encode_frame(codec, FrameKind::request, body, no_binding());
    bool reply_begun = false;
    try {
      Fd fd = connect_tcp(host, port, deadline);
      write_all(fd.get(), sent.header, deadline, -1, "sending credential");
      write_all(fd.get(), body, deadline, -1, "sending body");
      await_first_byte(fd.get(), deadline, "reading credential length");
      reply_begun = true;
      return receive_frame(fd.get(), codec, FrameKind::reply, binding_for(sent.credential),
                           options.max_body, deadline, -1);
    } catch (const PeerClosed& e) {
      if (reply_begun || !e.before_any_byte() || deadline.remaining_ms() <= pause.count()) throw;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
  }
}

}  // namespace

Reply request(const std::string& host, int port, const std::string& body,
              const ClientOptions& options) {
  const std::string where = "request to " + host + ":" + std::to_string(port) + ": ";
  if (body.size() > options.max_body)
    throw Error(where + "body of " + std::to_string(body.size()) + " bytes exceeds the limit of " +
                std::to_string(options.max_body) + " bytes");

  Deadline deadline(options.timeout);
  MungeCodec codec(options.munge_socket);
  try {
    Frame frame = exchange_with_retries(host, port, body, codec, options, deadline);
    if (options.expected_uid && frame.uid != *options.expected_uid)
      throw AuthenticationError("reply came from uid " + std::to_string(frame.uid) +
                                ", expected uid " + std::to_string(*options.expected_uid));
    return Reply{std::move(frame.body), frame.uid, frame.gid};
  } catch (const ConnectError&) {
    throw;  // already names host and port
  } catch (const AuthenticationError& e) {
    throw AuthenticationError(where + e.what());
  } catch (const MungeError& e) {
    throw MungeError(where + e.what(), e.credential_refused());
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
}

}  // namespace tofa::net
