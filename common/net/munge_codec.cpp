#include "net/munge_codec.hpp"

#include <munge.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <thread>
#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>

#include "base/error.hpp"

namespace tofa::net {
namespace {

struct ContextDeleter {
  void operator()(munge_ctx_t ctx) const { munge_ctx_destroy(ctx); }
};
using Context = std::unique_ptr<std::remove_pointer_t<munge_ctx_t>, ContextDeleter>;

Context make_context(const std::string& socket_path, int ttl_seconds) {
  Context ctx(munge_ctx_create());
  if (!ctx) throw MungeError("munge_ctx_create: out of memory", false);
  if (!socket_path.empty() &&
      munge_ctx_set(ctx.get(), MUNGE_OPT_SOCKET, socket_path.c_str()) != EMUNGE_SUCCESS)
    throw MungeError("munge_ctx_set: cannot use socket \"" + socket_path + "\"", false);
  if (ttl_seconds > 0 && munge_ctx_set(ctx.get(), MUNGE_OPT_TTL, ttl_seconds) != EMUNGE_SUCCESS)
    throw MungeError("munge_ctx_set: cannot set a time-to-live of " +
                         std::to_string(ttl_seconds) + " s", false);
  return ctx;
}

// Errors that are a verdict on the credential, as opposed to munged failing.
bool refuses_credential(munge_err_t err) {
  switch (err) {
    case EMUNGE_BAD_ARG:
    case EMUNGE_BAD_LENGTH:
    case EMUNGE_BAD_CRED:
    case EMUNGE_BAD_VERSION:
    case EMUNGE_BAD_CIPHER:
    case EMUNGE_BAD_MAC:
    case EMUNGE_BAD_ZIP:
    case EMUNGE_BAD_REALM:
    case EMUNGE_CRED_INVALID:
    case EMUNGE_CRED_EXPIRED:
    case EMUNGE_CRED_REWOUND:
    case EMUNGE_CRED_REPLAYED:
    case EMUNGE_CRED_UNAUTHORIZED:
      return true;
    default:
      return false;
  }
}

// The context's message is more precise (it names the socket on connection errors).
MungeError error_of(const char* call, munge_err_t err, munge_ctx_t ctx) {
  const char* detail = munge_ctx_strerror(ctx);
  return MungeError(std::string(call) + ": " + (detail ? detail : munge_strerror(err)),
                    refuses_credential(err));
}

// munged's listen queue overflows under a burst (hundreds of processes
// sealing at once) and libmunge's own few retries give up: wait a little
// longer, up to about 1.5 s in all, before calling munged unreachable.
bool retry_after_socket_error(munge_err_t err, int attempt) {
  constexpr int kAttempts = 12;
  if (err != EMUNGE_SOCKET || attempt >= kAttempts) return false;
  std::this_thread::sleep_for(std::chrono::milliseconds(std::min(200, 5 << attempt)));
  return true;
}

}  // namespace

MungeCodec::MungeCodec(std::string socket_path, int ttl_seconds)
    : socket_path_(std::move(socket_path)), ttl_seconds_(ttl_seconds) {}

std::string MungeCodec::encode(const std::string& payload) const {
  return encode_restricted(payload, std::nullopt);
}

std::string MungeCodec::encode_for(const std::string& payload, uid_t reader) const {
  return encode_restricted(payload, reader);
}

std::string MungeCodec::encode_restricted(const std::string& payload,
                                          std::optional<uid_t> reader) const {
  if (payload.size() > INT_MAX) throw MungeError("munge_encode: payload too large", false);
  for (int attempt = 1;; ++attempt) {
    Context ctx = make_context(socket_path_, ttl_seconds_);
    if (reader && munge_ctx_set(ctx.get(), MUNGE_OPT_UID_RESTRICTION, *reader) != EMUNGE_SUCCESS)
      throw MungeError("munge_ctx_set: cannot restrict a credential to uid " +
                           std::to_string(*reader), false);
    char* cred = nullptr;
    munge_err_t err =
        munge_encode(&cred, ctx.get(), payload.data(), static_cast<int>(payload.size()));
    std::unique_ptr<char, decltype(&std::free)> owned(cred, &std::free);
    if (err == EMUNGE_SUCCESS) return std::string(cred);
    if (!retry_after_socket_error(err, attempt)) throw error_of("munge_encode", err, ctx.get());
  }
}

MungeDecoded MungeCodec::decode(const std::string& credential) const {
  for (int attempt = 1;; ++attempt) {
    Context ctx = make_context(socket_path_, 0);
    void* buf = nullptr;
    int len = 0;
    MungeDecoded out;
    munge_err_t err = munge_decode(credential.c_str(), ctx.get(), &buf, &len, &out.uid, &out.gid);
    // libmunge allocates the payload even for some errors (expired, rewound,
    // replayed); every error, EMUNGE_CRED_REPLAYED included, refuses the message.
    std::unique_ptr<void, decltype(&std::free)> owned(buf, &std::free);
    if (err == EMUNGE_SUCCESS) {
      if (buf) out.payload.assign(static_cast<const char*>(buf), static_cast<std::size_t>(len));
      return out;
    }
    if (!retry_after_socket_error(err, attempt)) throw error_of("munge_decode", err, ctx.get());
  }
}

}  // namespace tofa::net
