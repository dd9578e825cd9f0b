// The text of a pattern: "NAME:KEY=VALUE,KEY=VALUE,...", read with errors
// that name the column of the spec where it went wrong.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tofa::patterns {

class PatternSpec {
 public:
  /// Splits `text` into the name and its settings. Throws Error (with the
  /// column) on an empty name, a setting without '=' or a key given twice.
  explicit PatternSpec(const std::string& text);

  const std::string& name() const { return name_; }

  /// Throws Error naming the first key that is not in `known`.
  void allow_only(const std::vector<std::string>& known) const;

  bool has(const std::string& key) const { return settings_.count(key) != 0; }
  /// A whole number in [low, high].
  long long integer(const std::string& key, long long fallback, long long low,
                    long long high) const;
  long long integer(const std::string& key, long long low, long long high) const;
  /// A size in bytes: a number with an optional K, M, G or T (powers of
  /// 1024), e.g. 4G, 1.5M, 8e6; positive and finite.
  double bytes(const std::string& key, double fallback) const;
  double bytes(const std::string& key) const;
  /// A positive number (no suffix).
  double number(const std::string& key, double fallback) const;
  /// AxBxC with `min_count` to `max_count` positive sizes.
  std::vector<int> sizes(const std::string& key, int min_count, int max_count) const;
  /// yes/no (also true/false, 1/0).
  bool flag(const std::string& key, bool fallback) const;
  /// One of `choices`; the first when the key is absent.
  std::string choice(const std::string& key, const std::vector<std::string>& choices) const;

  /// Throws Error "bad pattern 'TEXT' at column C (KEY=VALUE): message".
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  [[noreturn]] void fail_at(std::size_t column, const std::string& message) const;

 private:
  struct Setting {
    std::string value;
    std::size_t column = 0;  ///< 1-based, of the key
  };
  const Setting& setting(const std::string& key) const;

  std::string text_;
  std::string name_;
  std::map<std::string, Setting> settings_;
};

}  // namespace tofa::patterns
