// Slurm hostlist expansion: "n[000-511]", "n[1-3,7]", "a[1-2]b[3-4]", "n1,n[3-4]".
#include <algorithm>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "topology/topology.hpp"

namespace tofa {
namespace {

constexpr size_t kMaxDigits = 9;  // keeps every number inside an int
constexpr size_t kMaxNameLength = 255;

class HostlistParser {
 public:
  HostlistParser(const std::string& text, size_t max_names)
      : text_(text), max_names_(max_names) {}

  std::vector<std::string> expand() {
    check_brackets();
    std::vector<std::string> names;
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= text_.size(); ++i) {
      if (i < text_.size() && text_[i] != ',') {
        depth += text_[i] == '[' ? 1 : text_[i] == ']' ? -1 : 0;
        continue;
      }
      if (i < text_.size() && depth > 0) continue;  // a ',' inside brackets
      if (i == start) fail("expected a host name at position " + std::to_string(i + 1));
      expand_item(start, i, names);
      start = i + 1;
    }
    return names;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    const std::string shown = text_.size() > 80 ? text_.substr(0, 77) + "..." : text_;
    throw Error("bad hostlist '" + shown + "': " + what);
  }

  std::string found(size_t pos) const {
    return pos < text_.size() ? "'" + std::string(1, text_[pos]) + "'" : "the end";
  }

  void check_brackets() const {
    bool open = false;
    for (char c : text_) {
      if (c == '[') {
        if (open) fail("'[' inside '[...]'");
        open = true;
      } else if (c == ']') {
        if (!open) fail("']' without '['");
        open = false;
      }
    }
    if (open) fail("unclosed '['");
  }

  /// Appends the cartesian product of the parts of text_[begin, end); the
  /// leftmost bracket varies slowest, as in Slurm.
  void expand_item(size_t begin, size_t end, std::vector<std::string>& names) const {
    std::vector<std::string> partial{""};
    size_t pos = begin;
    while (pos < end) {
      std::vector<std::string> choices;
      if (text_[pos] == '[') {
        const size_t close = text_.find(']', pos);
        choices = expand_brackets(pos + 1, close);
        pos = close + 1;
      } else {
        const size_t next = std::min(text_.find('[', pos), end);
        choices.push_back(text_.substr(pos, next - pos));
        pos = next;
      }
      // Sizes are checked before anything is built: the product of small
      // ranges, or many ranges in one bracket, would otherwise allocate first.
      if (choices.size() > max_names_ || partial.size() > (max_names_ - names.size()) / choices.size())
        too_many();
      if (partial.front().size() + longest(choices) > kMaxNameLength)
        fail("a name would be longer than " + std::to_string(kMaxNameLength) + " characters");
      std::vector<std::string> longer;
      longer.reserve(partial.size() * choices.size());
      for (const std::string& prefix : partial)
        for (const std::string& choice : choices) longer.push_back(prefix + choice);
      partial.swap(longer);
    }
    names.insert(names.end(), partial.begin(), partial.end());
  }

  static size_t longest(const std::vector<std::string>& strings) {
    size_t length = 0;
    for (const std::string& s : strings) length = std::max(length, s.size());
    return length;
  }

  [[noreturn]] void too_many() const {
    fail("expands to more than " + std::to_string(max_names_) + " names");
  }

  /// "1-3,07" between the brackets at [begin, end).
  std::vector<std::string> expand_brackets(size_t begin, size_t end) const {
    std::vector<std::string> result;
    size_t pos = begin;
    while (true) {
      const std::string low = read_number(pos);
      std::string high = low;
      if (text_[pos] == '-') {
        ++pos;
        high = read_number(pos);
      }
      if (pos != end && text_[pos] != ',')
        fail("expected '-', ',' or ']' after a number, found " + found(pos));
      const int first = std::stoi(low);
      const int last = std::stoi(high);
      if (last < first) fail("range " + low + "-" + high + " is descending");
      if (static_cast<size_t>(last - first) >= max_names_ - result.size()) too_many();
      const size_t width = low.size() > 1 && low[0] == '0' ? low.size() : 0;
      for (int n = first; n <= last; ++n) {
        std::string digits = std::to_string(n);
        if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
        result.push_back(digits);
      }
      if (pos == end) return result;
      ++pos;  // past ','
    }
  }

  std::string read_number(size_t& pos) const {
    const size_t start = pos;
    while (pos < text_.size() && text_[pos] >= '0' && text_[pos] <= '9') ++pos;
    if (pos == start) fail("expected a number in range, found " + found(pos));
    if (pos - start > kMaxDigits)
      fail("number " + text_.substr(start, pos - start) + " has more than " +
           std::to_string(kMaxDigits) + " digits");
    return text_.substr(start, pos - start);
  }

  const std::string& text_;
  const size_t max_names_;
};

}  // namespace

std::vector<std::string> expand_hostlist(const std::string& hostlist, size_t max_names) {
  return HostlistParser(hostlist, max_names).expand();
}

}  // namespace tofa
