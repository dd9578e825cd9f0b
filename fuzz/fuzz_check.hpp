// What every fuzz target shares: the input as text, and an invariant check
// that makes libFuzzer report a finding (abort) with a message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace tofa_fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

[[noreturn]] inline void fail(const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "%s:%d: invariant violated: %s\n", file, line, what.c_str());
  std::abort();
}

}  // namespace tofa_fuzz

#define FUZZ_CHECK(condition, what) \
  do {                              \
    if (!(condition)) ::tofa_fuzz::fail(__FILE__, __LINE__, what); \
  } while (0)
