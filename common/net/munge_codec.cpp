#include "net/munge_codec.hpp"

#include <munge.h>

#include <climits>
#include <cstdlib>
#include <memory>
#include <utility>

#include "tofa/error.hpp"

namespace tofa::net {
namespace {

struct ContextDeleter {
  void operator()(munge_ctx_t ctx) const { munge_ctx_destroy(ctx); }
};
using Context = std::unique_ptr<std::remove_pointer_t<munge_ctx_t>, ContextDeleter>;

Context make_context(const std::string& socket_path) {
  Context ctx(munge_ctx_create());
  if (!ctx) throw Error("munge_ctx_create: out of memory");
  if (!socket_path.empty() &&
      munge_ctx_set(ctx.get(), MUNGE_OPT_SOCKET, socket_path.c_str()) != EMUNGE_SUCCESS)
    throw Error("munge_ctx_set: cannot use socket \"" + socket_path + "\"");
  return ctx;
}

// The context's message is more precise (it names the socket on connection errors).
std::string error_text(const char* call, munge_err_t err, munge_ctx_t ctx) {
  const char* detail = munge_ctx_strerror(ctx);
  return std::string(call) + ": " + (detail ? detail : munge_strerror(err));
}

}  // namespace

MungeCodec::MungeCodec(std::string socket_path) : socket_path_(std::move(socket_path)) {}

std::string MungeCodec::encode(const std::string& payload) const {
  if (payload.size() > INT_MAX) throw Error("munge_encode: payload too large");
  Context ctx = make_context(socket_path_);
  char* cred = nullptr;
  munge_err_t err = munge_encode(&cred, ctx.get(), payload.data(), static_cast<int>(payload.size()));
  std::unique_ptr<char, decltype(&std::free)> owned(cred, &std::free);
  if (err != EMUNGE_SUCCESS) throw Error(error_text("munge_encode", err, ctx.get()));
  return std::string(cred);
}

MungeDecoded MungeCodec::decode(const std::string& credential) const {
  Context ctx = make_context(socket_path_);
  void* buf = nullptr;
  int len = 0;
  MungeDecoded out;
  munge_err_t err = munge_decode(credential.c_str(), ctx.get(), &buf, &len, &out.uid, &out.gid);
  // libmunge allocates the payload even for some errors (expired, replayed).
  std::unique_ptr<void, decltype(&std::free)> owned(buf, &std::free);
  if (err != EMUNGE_SUCCESS) throw Error(error_text("munge_decode", err, ctx.get()));
  if (buf) out.payload.assign(static_cast<const char*>(buf), static_cast<std::size_t>(len));
  return out;
}

}  // namespace tofa::net
