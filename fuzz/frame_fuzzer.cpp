// The pre-authentication part of the wire format: bytes from an unknown peer
// arrive on a socket and net::receive_frame reads the credential length,
// the credential, the seal it carries and the body. The fake codec
// (fake_munge_codec.cpp) accepts "FAKE:<hex seal>" so the checks after
// munge_decode are reached too. The first input byte picks the frame kind.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>

#include "base/error.hpp"
#include "fuzz_check.hpp"
#include "net/frame.hpp"
#include "net/socket_io.hpp"

using namespace tofa::net;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 65536) return 0;  // the whole input must fit the socket buffer
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds) != 0) std::abort();
  Fd reader(fds[0]), writer(fds[1]);
  const Deadline deadline(std::chrono::milliseconds(1000));
  const FrameKind kind = data[0] & 1 ? FrameKind::reply : FrameKind::request;
  const std::string binding = kind == FrameKind::reply ? binding_for("FAKE:") : no_binding();
  write_all(writer.get(), tofa_fuzz::text_of(data + 1, size - 1), deadline, -1, "fuzz input");
  shutdown(writer.get(), SHUT_WR);
  const MungeCodec codec;
  std::string credential;
  try {
    const Frame frame =
        receive_frame(reader.get(), codec, kind, binding, 4096, deadline, -1, &credential);
    FUZZ_CHECK(frame.body.size() <= 4096, "body over the limit accepted");
    FUZZ_CHECK(make_seal(kind, frame.body, binding) == codec.decode(credential).payload,
               "a frame was accepted whose seal does not match its body");
  } catch (const tofa::Error&) {
  }
  return 0;
}
