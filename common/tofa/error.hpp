// Errors thrown by the tofa library. Callers outside C++ go through capi.cpp,
// which turns every exception into a return code and a message.
#pragma once

#include <stdexcept>
#include <string>

namespace tofa {

/// Any failure the library reports: bad arguments, impossible requests, I/O.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/// Bad input text. what() is "FILE:LINE:COLUMN: MESSAGE"; line and column are
/// 1-based (column 0 when the problem concerns a whole line or file).
class ParseError : public Error {
 public:
  ParseError(const std::string& file, int line, int column, const std::string& message)
      : Error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
        file_(file), line_(line), column_(column), message_(message) {}
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
