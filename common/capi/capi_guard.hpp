// Shared by the C API files: every entry point runs its body through
// guarded(), so no exception reaches C callers (Slurm daemons).
#pragma once

#include <cstring>
#include <exception>
#include <new>

#include "base/error.hpp"
#include "service/map_worker.hpp"
#include "tofa.h"

namespace tofa::capi {

/// Copies text into err (NUL-terminated, truncated to err_size).
inline void write_error(char* err, size_t err_size, const char* text) {
  if (err == nullptr || err_size == 0) return;
  std::strncpy(err, text, err_size - 1);
  err[err_size - 1] = '\0';
}

/// Runs `body`; any exception becomes TOFA_ERROR with its text in err.
template <typename Body>
int guarded(char* err, size_t err_size, Body&& body) noexcept {
  try {
    body();
    return TOFA_OK;
  } catch (const service::MapWorkerFailure& e) {
    write_error(err, err_size, e.what());
    return TOFA_MAPPING_FAILED;
  } catch (const std::bad_alloc&) {
    write_error(err, err_size, "out of memory");
  } catch (const std::exception& e) {
    write_error(err, err_size, e.what());
  } catch (...) {
    write_error(err, err_size, "unknown error");
  }
  return TOFA_ERROR;
}

inline void require(bool condition, const char* what) {
  if (!condition) throw Error(what);
}

}  // namespace tofa::capi
