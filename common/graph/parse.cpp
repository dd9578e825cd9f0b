// Reading communication graphs: dense matrices, edge lists, MatrixMarket.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <istream>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/size_limit.hpp"
#include "graph/graph.hpp"

namespace tofa {

namespace {

/// Largest task count we accept: guards against absurd allocations from a
/// typo like "40960000000" while leaving room for any real application.
constexpr long long kMaxTasks = size_limit(1LL << 24, 1LL << 14);

const char* const kEmptyFile = "empty file: expected the task count N on the first line";
const char* const kEdgeLine = "'i j bytes [msgs]'";
const char* const kMatrixMarketBanner =
    "expected '%%MatrixMarket matrix coordinate <real|integer|pattern> <general|symmetric>'";

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// A whitespace-separated word of the current line; valid until the next line is read.
struct Token {
  const char* text;
  std::size_t size;
  int column;  // 1-based byte column
  std::string str() const { return std::string(text, size); }
};

bool equals_ignoring_case(const Token& token, const char* word) {
  const std::size_t length = std::strlen(word);
  if (token.size != length) return false;
  for (std::size_t i = 0; i < length; ++i) {
    char c = token.text[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    char w = word[i];
    if (w >= 'A' && w <= 'Z') w = static_cast<char>(w - 'A' + 'a');
    if (c != w) return false;
  }
  return true;
}

/// Line-by-line reader that counts lines, splits them into tokens and can
/// hand the current line out once more (used after format detection).
class LineReader {
 public:
  /// The task count is at most kMaxTasks whatever `limits` say.
  LineReader(std::istream& in, const std::string& source, const GraphLimits& limits = {})
      : in_(in), source_(source), limits_(limits) {
    limits_.max_tasks = std::min(limits_.max_tasks, kMaxTasks);
  }

  /// Fails at `token` when a graph of `tasks` tasks is more than the caller
  /// accepts; `what` says where the count comes from.
  void check_task_count(const Token& token, long long tasks, const std::string& what) const {
    if (tasks > limits_.max_tasks)
      fail(token.column, what + " means " + std::to_string(tasks) + " tasks, expected at most " +
                             std::to_string(limits_.max_tasks) + named(limits_.tasks_source));
  }

  /// The most records the memory limit allows (kMaxTasks squared without one).
  long long max_records() const {
    return limits_.max_memory > 0 ? limits_.max_memory / kBytesPerRecord : kMaxTasks * kMaxTasks;
  }

  /// Counts `count` more communication records; fails at `token` once the
  /// graph built from them would pass the memory limit.
  void add_records(const Token& token, long long count) {
    records_ += count;
    if (limits_.max_memory > 0 && records_ * kBytesPerRecord > limits_.max_memory)
      fail(token.column, std::to_string(records_) + " communicating pairs so far would take " +
                             std::to_string(records_ * kBytesPerRecord) +
                             " bytes in memory, expected at most " +
                             std::to_string(limits_.max_memory) + named(limits_.memory_source));
  }

  /// Reads the next raw line; false at end of input.
  bool next_line() {
    if (replay_) {
      replay_ = false;
      return true;
    }
    if (!std::getline(in_, line_)) {
      if (in_.bad()) throw Error("cannot read '" + source_ + "': input error");
      return false;
    }
    ++line_number_;
    return true;
  }

  /// Reads up to the next line with at least one token. With `hash_comments`
  /// everything from '#' on is ignored.
  bool next_data_line(bool hash_comments) {
    while (next_line()) {
      tokenize(hash_comments);
      if (!tokens_.empty()) return true;
    }
    return false;
  }

  /// Makes the next next_line() return the current line again.
  void replay() { replay_ = true; }

  void tokenize(bool hash_comments) {
    tokens_.clear();
    const char* const start = line_.c_str();
    const char* p = start;
    while (*p != '\0') {
      if (is_space(*p)) {
        ++p;
        continue;
      }
      if (hash_comments && *p == '#') break;
      const char* begin = p;
      while (*p != '\0' && !is_space(*p) && !(hash_comments && *p == '#')) ++p;
      tokens_.push_back(
          {begin, static_cast<std::size_t>(p - begin), static_cast<int>(begin - start) + 1});
    }
  }

  const std::string& line() const { return line_; }
  const std::vector<Token>& tokens() const { return tokens_; }
  int line_number() const { return line_number_; }
  const std::string& source() const { return source_; }

  [[noreturn]] void fail(int column, const std::string& message) const {
    throw ParseError(source_, line_number_, column, message);
  }

  /// Adds an amount to the file's running total; fails at `token` when the
  /// total passes kMaxTotalAmount (each value finite is not enough: their sum
  /// must stay finite through every metric computed from it).
  void add_to_total(const Token& token, double amount) const {
    total_ += amount;
    if (total_ > kMaxTotalAmount) {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", kMaxTotalAmount);
      fail(token.column, "the numbers of this file add up to more than " + std::string(limit) +
                             " here, expected a smaller total");
    }
  }
  [[noreturn]] void fail_at_line(int line, int column, const std::string& message) const {
    throw ParseError(source_, line, column, message);
  }

 private:
  static std::string named(const std::string& source) {
    return source.empty() ? "" : " (" + source + ")";
  }

  std::istream& in_;
  std::string source_;
  GraphLimits limits_;
  long long records_ = 0;
  std::string line_;
  std::vector<Token> tokens_;
  int line_number_ = 0;
  bool replay_ = false;
  mutable double total_ = 0;
};

/// Parses an all-digit token; false if it has another character or exceeds `max`.
bool parse_unsigned(const Token& token, long long max, long long& value) {
  if (token.size == 0 || token.size > 18) return false;
  long long result = 0;
  for (std::size_t i = 0; i < token.size; ++i) {
    if (!is_digit(token.text[i])) return false;
    result = result * 10 + (token.text[i] - '0');
  }
  if (result > max) return false;
  value = result;
  return true;
}

/// A finite, non-negative decimal number ("12", "0.5", "1e6").
double parse_amount(const LineReader& reader, const Token& token) {
  // Plain integers are by far the most common token: convert them directly.
  long long integer = 0;
  if (token.size <= 15 && parse_unsigned(token, 999999999999999LL, integer)) {
    reader.add_to_total(token, static_cast<double>(integer));
    return static_cast<double>(integer);
  }
  // strtod alone would also take "inf", "nan" and hexadecimal; only decimal
  // notation is a number here.
  bool decimal = true;
  for (std::size_t i = 0; i < token.size && decimal; ++i) {
    const char c = token.text[i];
    decimal = is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
  }
  if (decimal) {
    char* end = nullptr;
    const double value = std::strtod(token.text, &end);
    // Adding 0.0 turns an accepted "-0" into +0.
    if (end == token.text + token.size && std::isfinite(value) && value >= 0) {
      reader.add_to_total(token, value);
      return value + 0.0;
    }
  }
  reader.fail(token.column, "expected a non-negative number, found '" + token.str() + "'");
}

std::string count_text(std::size_t count) {
  return std::to_string(count) + (count == 1 ? " value" : " values");
}

// ---------------------------------------------------------------- dense matrix

/// A dense matrix folded onto its upper triangle while it is read: for i < j,
/// upper[i][j-i-1] = G(i,j), lower[i][j-i-1] = G(j,i) and nonzero[i][j-i-1]
/// counts how many of the two entries are non-zero. The diagonal is never
/// stored.
struct PairSums {
  int n = 0;
  std::vector<std::vector<double>> upper;
  std::vector<std::vector<double>> lower;
  std::vector<std::vector<std::uint8_t>> nonzero;
  double sum(int i, int k) const { return upper[i][k] + lower[i][k]; }
};

int parse_task_count(LineReader& reader) {
  if (!reader.next_data_line(true)) reader.fail_at_line(1, 0, kEmptyFile);
  const std::vector<Token>& tokens = reader.tokens();
  long long n = 0;
  if (!parse_unsigned(tokens[0], kMaxTasks, n) || n == 0) {
    reader.fail(tokens[0].column,
                "expected a positive integer task count, found '" + tokens[0].str() + "'");
  }
  if (tokens.size() > 1) {
    reader.fail(tokens[1].column, "expected only the task count N on the first line, found " +
                                      count_text(tokens.size()));
  }
  reader.check_task_count(tokens[0], n, "task count " + tokens[0].str());
  return static_cast<int>(n);
}

/// Reads a dense matrix. A message matrix passes the task count of its byte
/// matrix in `required_n` and that file's name in `required_by`.
PairSums parse_dense(LineReader& reader, int required_n = 0, const std::string& required_by = "") {
  PairSums pairs;
  pairs.n = parse_task_count(reader);
  if (required_n != 0 && pairs.n != required_n) {
    reader.fail(reader.tokens()[0].column, "expected the task count " + std::to_string(required_n) +
                                               " of '" + required_by + "', found " +
                                               std::to_string(pairs.n));
  }
  const int n = pairs.n;
  const auto width = static_cast<std::size_t>(n);
  int i = 0;  // index of the row being read
  while (reader.next_data_line(true)) {
    const std::vector<Token>& tokens = reader.tokens();
    if (i == n) reader.fail(tokens[0].column, "expected " + std::to_string(n) + " rows, found more");
    if (tokens.size() != width) {
      reader.fail(tokens.size() > width ? tokens[width].column : 0,
                  "row " + std::to_string(i) + " has " + count_text(tokens.size()) +
                      ", expected " + std::to_string(n));
    }
    // Below the diagonal: complete the pair (j,i) opened by row j.
    for (int j = 0; j < i; ++j) {
      const double value = parse_amount(reader, tokens[j]);
      if (value != 0 && pairs.nonzero[j][i - j - 1] == 0) reader.add_records(tokens[j], 1);
      pairs.lower[j][i - j - 1] = value;
      pairs.nonzero[j][i - j - 1] += value != 0;
    }
    parse_amount(reader, tokens[i]);  // the diagonal is validated, then ignored
    std::vector<double> upper(width - i - 1);
    std::vector<std::uint8_t> upper_nonzero(width - i - 1);
    for (int j = i + 1; j < n; ++j) {
      const double value = parse_amount(reader, tokens[j]);
      upper[j - i - 1] = value;
      upper_nonzero[j - i - 1] = value != 0;
      if (value != 0) reader.add_records(tokens[j], 1);
    }
    pairs.lower.emplace_back(upper.size(), 0.0);
    pairs.upper.push_back(std::move(upper));
    pairs.nonzero.push_back(std::move(upper_nonzero));
    ++i;
  }
  if (i < n) {
    reader.fail_at_line(reader.line_number(), 0,
                        "expected " + std::to_string(n) + " rows, found " + std::to_string(i));
  }
  return pairs;
}

/// Graph of a dense byte matrix. Message counts come from `messages` when
/// given, otherwise every non-zero directed byte entry counts as one message.
CommGraph graph_from_dense(PairSums bytes, const PairSums* messages) {
  const int n = bytes.n;
  auto visit_pairs = [&](auto&& use) {
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < n - i - 1; ++k) {
        const double pair_messages =
            messages != nullptr ? messages->sum(i, k) : bytes.nonzero[i][k];
        if (bytes.sum(i, k) != 0 || pair_messages != 0)
          use(i, i + 1 + k, bytes.upper[i][k], bytes.lower[i][k], pair_messages);
      }
    }
  };
  std::size_t count = 0;
  visit_pairs([&](int, int, double, double, double) { ++count; });
  std::vector<CommEdge> edges;
  edges.reserve(2 * count);
  // Each pair as its two directed records, the pair's messages on the first.
  visit_pairs([&](int i, int j, double sent, double received, double pair_messages) {
    edges.push_back({i, j, sent, pair_messages});
    edges.push_back({j, i, received, 0});
  });
  // Release the matrix before the CSR arrays are allocated.
  bytes = {};
  return CommGraph::from_directed_edges(n, edges, Directions::Kept);
}

// ------------------------------------------------------------------ edge list

int parse_task_id(const LineReader& reader, const Token& token) {
  long long id = 0;
  if (!parse_unsigned(token, kMaxTasks - 1, id)) {
    reader.fail(token.column,
                "expected a non-negative integer task id, found '" + token.str() + "'");
  }
  reader.check_task_count(token, id + 1, "task id " + token.str());
  return static_cast<int>(id);
}

CommGraph parse_edge_list(LineReader& reader) {
  std::vector<CommEdge> edges;
  int max_id = -1;
  bool any_line = false;
  while (reader.next_data_line(true)) {
    any_line = true;
    const std::vector<Token>& tokens = reader.tokens();
    if (tokens.size() < 3 || tokens.size() > 4) {
      reader.fail(tokens.size() > 4 ? tokens[4].column : 0,
                  std::string("expected ") + kEdgeLine + ", found " + count_text(tokens.size()));
    }
    CommEdge edge;
    edge.from = parse_task_id(reader, tokens[0]);
    edge.to = parse_task_id(reader, tokens[1]);
    edge.bytes = parse_amount(reader, tokens[2]);
    edge.messages = tokens.size() == 4 ? parse_amount(reader, tokens[3]) : 1.0;
    max_id = std::max({max_id, edge.from, edge.to});
    reader.add_records(tokens[0], 1);
    edges.push_back(edge);
  }
  if (!any_line) {
    reader.fail_at_line(1, 0, std::string("empty file: expected lines ") + kEdgeLine);
  }
  return CommGraph::from_directed_edges(max_id + 1, edges, Directions::Kept);
}

// --------------------------------------------------------------- MatrixMarket

enum class MarketField { Real, Integer, Pattern };

bool is_market_comment(const std::string& line) {
  for (char c : line) {
    if (!is_space(c)) return c == '%';
  }
  return false;
}

/// Next line that is neither blank nor a '%' comment.
bool next_market_line(LineReader& reader) {
  while (reader.next_line()) {
    if (is_market_comment(reader.line())) continue;
    reader.tokenize(false);
    if (!reader.tokens().empty()) return true;
  }
  return false;
}

struct MarketHeader {
  MarketField field = MarketField::Real;
  bool symmetric = false;
};

MarketHeader parse_market_banner(LineReader& reader) {
  if (!reader.next_data_line(false)) reader.fail_at_line(1, 0, kMatrixMarketBanner);
  const std::vector<Token>& tokens = reader.tokens();
  auto expect = [&](std::size_t index, std::initializer_list<const char*> words) -> int {
    if (index >= tokens.size()) reader.fail(0, kMatrixMarketBanner);
    int which = 0;
    for (const char* word : words) {
      if (equals_ignoring_case(tokens[index], word)) return which;
      ++which;
    }
    reader.fail(tokens[index].column, kMatrixMarketBanner);
  };
  expect(0, {"%%MatrixMarket"});
  expect(1, {"matrix"});
  expect(2, {"coordinate"});
  MarketHeader header;
  header.field = static_cast<MarketField>(expect(3, {"real", "integer", "pattern"}));
  header.symmetric = expect(4, {"general", "symmetric"}) == 1;
  if (tokens.size() > 5) reader.fail(tokens[5].column, kMatrixMarketBanner);
  return header;
}

// long: the banner, size line and entries of Matrix Market, each with its own errors.
CommGraph parse_matrix_market(LineReader& reader) {
  const MarketHeader header = parse_market_banner(reader);

  const char* const size_form = "expected 'rows cols entries', found ";
  if (!next_market_line(reader)) reader.fail(0, std::string(size_form) + "end of file");
  long long size[3] = {0, 0, 0};
  {
    const std::vector<Token>& tokens = reader.tokens();
    if (tokens.size() != 3) {
      reader.fail(tokens.size() > 3 ? tokens[3].column : 0,
                  size_form + count_text(tokens.size()));
    }
    const long long limits[3] = {kMaxTasks, kMaxTasks, 1LL << 50};
    for (int k = 0; k < 3; ++k) {
      if (!parse_unsigned(tokens[k], limits[k], size[k]) || (k < 2 && size[k] == 0)) {
        reader.fail(tokens[k].column, size_form + ("'" + tokens[k].str() + "'"));
      }
    }
    if (size[0] != size[1]) {
      reader.fail(0, "matrix is " + std::to_string(size[0]) + " x " + std::to_string(size[1]) +
                         ", expected a square matrix");
    }
    reader.check_task_count(tokens[0], size[0], "size " + tokens[0].str());
  }
  const int n = static_cast<int>(size[0]);
  const long long expected = size[2];
  const std::string entry_form =
      header.field == MarketField::Pattern ? "expected 'i j', found " : "expected 'i j value', found ";
  const std::size_t entry_tokens = header.field == MarketField::Pattern ? 2 : 3;

  auto parse_id = [&](const Token& token) {
    long long id = 0;
    if (!parse_unsigned(token, 1LL << 50, id)) {
      reader.fail(token.column, "expected a positive integer task id, found '" + token.str() + "'");
    }
    if (id < 1 || id > n) {
      reader.fail(token.column, "task id " + token.str() + " is outside 1.." + std::to_string(n));
    }
    return static_cast<int>(id - 1);
  };

  std::vector<CommEdge> edges;
  edges.reserve(static_cast<std::size_t>(
      std::min<long long>(std::min<long long>(expected, 1 << 20) * (header.symmetric ? 2 : 1),
                          reader.max_records())));
  long long found = 0;
  while (next_market_line(reader)) {
    const std::vector<Token>& tokens = reader.tokens();
    if (found == expected) {
      reader.fail(tokens[0].column, "expected " + std::to_string(expected) + " entries, found more");
    }
    if (tokens.size() != entry_tokens) {
      reader.fail(tokens.size() > entry_tokens ? tokens[entry_tokens].column : 0,
                  entry_form + count_text(tokens.size()));
    }
    const int i = parse_id(tokens[0]);
    const int j = parse_id(tokens[1]);
    double value = 1.0;
    if (header.field == MarketField::Integer) {
      long long integer = 0;
      if (!parse_unsigned(tokens[2], 999999999999999LL, integer)) {
        reader.fail(tokens[2].column,
                    "expected a non-negative integer, found '" + tokens[2].str() + "'");
      }
      value = static_cast<double>(integer);
    } else if (header.field == MarketField::Real) {
      value = parse_amount(reader, tokens[2]);
    }
    ++found;
    if (i == j || value == 0) continue;
    reader.add_records(tokens[0], header.symmetric ? 2 : 1);
    edges.push_back({i, j, value, 1.0});
    if (header.symmetric) edges.push_back({j, i, value, 1.0});
  }
  if (found < expected) {
    reader.fail_at_line(reader.line_number(), 0,
                        "expected " + std::to_string(expected) + " entries, found " +
                            std::to_string(found));
  }
  return CommGraph::from_directed_edges(n, edges, Directions::Kept);
}

// ------------------------------------------------------------- dispatching

bool starts_market_banner(const std::string& line) {
  static const char kBanner[] = "%%matrixmarket";
  std::size_t p = 0;
  while (p < line.size() && is_space(line[p])) ++p;
  if (line.size() - p < sizeof kBanner - 1) return false;
  Token head{line.c_str() + p, sizeof kBanner - 1, 0};
  return equals_ignoring_case(head, kBanner);
}

/// Decides the format from the first non-blank line and leaves that line to
/// be read again by the format's parser.
GraphFormat detect_format(LineReader& reader) {
  while (reader.next_line()) {
    if (starts_market_banner(reader.line())) {
      reader.replay();
      return GraphFormat::MatrixMarket;
    }
    reader.tokenize(true);
    const std::size_t count = reader.tokens().size();
    if (count == 0) continue;
    reader.replay();
    if (count == 1) return GraphFormat::DenseMatrix;
    if (count == 3 || count == 4) return GraphFormat::EdgeList;
    reader.fail(0, "expected the task count N or an edge " + std::string(kEdgeLine) + ", found " +
                       count_text(count));
  }
  reader.fail_at_line(1, 0, kEmptyFile);
}

CommGraph parse_known_format(LineReader& reader, GraphFormat format) {
  switch (format) {
    case GraphFormat::DenseMatrix:
      return graph_from_dense(parse_dense(reader), nullptr);
    case GraphFormat::EdgeList:
      return parse_edge_list(reader);
    case GraphFormat::MatrixMarket:
      return parse_matrix_market(reader);
    case GraphFormat::Auto:
      break;
  }
  return parse_known_format(reader, detect_format(reader));
}

/// Opens `path` for reading; false if it does not exist and `may_be_missing`.
bool open_graph_file(const std::string& path, std::ifstream& file, bool may_be_missing) {
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    const int error = errno;
    if (may_be_missing && error == ENOENT) return false;
    throw Error("cannot open graph file '" + path + "': " + std::strerror(error));
  }
  if (S_ISDIR(info.st_mode)) {
    throw Error("cannot open graph file '" + path + "': " + std::strerror(EISDIR));
  }
  file.open(path);
  if (!file) {
    throw Error("cannot open graph file '" + path + "': " + std::strerror(errno));
  }
  return true;
}

}  // namespace

CommGraph parse_graph(std::istream& in, const std::string& source_name, GraphFormat format,
                      const GraphLimits& limits) {
  LineReader reader(in, source_name, limits);
  return parse_known_format(reader, format);
}

CommGraph read_graph(const std::string& path, GraphFormat format) {
  std::ifstream file;
  open_graph_file(path, file, false);
  LineReader reader(file, path);
  if (format == GraphFormat::Auto) format = detect_format(reader);
  if (format != GraphFormat::DenseMatrix) return parse_known_format(reader, format);

  PairSums bytes = parse_dense(reader);
  const std::string sibling = message_matrix_path(path);
  std::ifstream sibling_file;
  if (!open_graph_file(sibling, sibling_file, true)) {
    return graph_from_dense(std::move(bytes), nullptr);
  }
  LineReader sibling_reader(sibling_file, sibling);
  PairSums messages = parse_dense(sibling_reader, bytes.n, path);
  messages.nonzero = {};
  return graph_from_dense(std::move(bytes), &messages);
}

}  // namespace tofa
