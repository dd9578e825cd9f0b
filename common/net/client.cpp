#include "net/client.hpp"

#include "net/frame.hpp"
#include "net/munge_codec.hpp"
#include "net/socket_io.hpp"
#include "tofa/error.hpp"

namespace tofa::net {

Reply request(const std::string& host, int port, const std::string& body,
              const ClientOptions& options) {
  const std::string where = "request to " + host + ":" + std::to_string(port) + ": ";
  if (body.size() > options.max_body)
    throw Error(where + "body of " + std::to_string(body.size()) + " bytes exceeds the limit of " +
                std::to_string(options.max_body) + " bytes");

  Deadline deadline(options.timeout);
  MungeCodec codec(options.munge_socket);
  try {
    // Sealed before connecting: the credential follows the connect at once,
    // so a server under a flood of idle connections sees it authenticate fast.
    const EncodedFrame sent = encode_frame(codec, FrameKind::request, body, no_binding());
    Fd fd = connect_tcp(host, port, deadline);
    write_all(fd.get(), sent.header, deadline, -1, "sending credential");
    write_all(fd.get(), body, deadline, -1, "sending body");
    Frame frame = receive_frame(fd.get(), codec, FrameKind::reply, binding_for(sent.credential),
                                options.max_body, deadline, -1);
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
