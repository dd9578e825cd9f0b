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
  Fd fd = connect_tcp(host, port, deadline);
  MungeCodec codec(options.munge_socket);
  try {
    std::string credential =
        send_frame(fd.get(), codec, FrameKind::request, body, no_binding(), deadline, -1);
    Frame frame = receive_frame(fd.get(), codec, FrameKind::reply, binding_for(credential),
                                options.max_body, deadline, -1);
    if (options.expected_uid && frame.uid != *options.expected_uid)
      throw Error("reply came from uid " + std::to_string(frame.uid) + ", expected uid " +
                  std::to_string(*options.expected_uid));
    return Reply{std::move(frame.body), frame.uid, frame.gid};
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
}

}  // namespace tofa::net
