// Text from users or the network made safe to print on a terminal or into a
// log: control characters (C0, DEL, and C1 as UTF-8 encodes them), which
// could move a cursor, clear a screen or retitle a root terminal, become
// \xNN; everything else, UTF-8 included, is kept.
#pragma once

#include <cstdio>
#include <string>

namespace tofa {

inline std::string printable(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  auto escape = [&out](unsigned char c) {
    char buffer[5];
    std::snprintf(buffer, sizeof buffer, "\\x%02X", c);
    out += buffer;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
    if (c < 0x20 || c == 0x7f) {
      escape(c);
    } else if (c == 0xc2 && next >= 0x80 && next <= 0x9f) {
      escape(c);
      escape(next);
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace tofa
