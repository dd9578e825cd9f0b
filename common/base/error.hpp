// Errors thrown by the tofa library. Callers outside C++ go through capi.cpp,
// which turns every exception into a return code and a message.
#pragma once

#include <stdexcept>
#include <string>

namespace tofa {

/// `text` with control characters (other than tab and newline) written as
/// \xNN, so that binary garbage quoted from bad input never reaches a
/// terminal or a log raw.
inline std::string escape_control_characters(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

/// Any failure the library reports: bad arguments, impossible requests, I/O.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(escape_control_characters(what)) {}
};

/// Bad input text. what() is "FILE:LINE:COLUMN: MESSAGE"; line and column are
/// 1-based (column 0 when the problem concerns a whole line or file).
class ParseError : public Error {
 public:
  ParseError(const std::string& file, int line, int column, const std::string& message)
      : Error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
        file_(file), line_(line), column_(column), message_(escape_control_characters(message)) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  /// The message without the location prefix.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

}  // namespace tofa
