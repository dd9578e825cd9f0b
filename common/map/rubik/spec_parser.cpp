// The Rubik spec format: the seed's Python listings, one statement per line.
//
//   # comment                         Z, Y, X = 0, 1, 2      (named integers)
//   app = box([9, 3, 8])              app.tile([9, 3, 1])
//   net.cut([2, 1, 4, 1], [mod, div, div, div])
//   net.map(app)                      net[0].tilt(Z, X, 1)   net[1, 0].zorder()
//   net[*].zigzag(X, Y, 1)            for c in net: c.div([1, 2, 2])
//   net.write_map_file(f)             (marks net as the tree to write)
//
// A subscript picks a child by its index in the child grid, or by one
// row-major number; '*' picks every child. Statements run as they are read.
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "base/error.hpp"
#include "map/rubik/rubik.hpp"

namespace tofa {
namespace rubik {
namespace {

struct Token {
  enum Kind { Name, Number, Punct, End } kind = End;
  std::string text;
  int column = 0;
};

std::string describe(const Token& token) {
  return token.kind == Token::End ? "end of line" : "'" + token.text + "'";
}

class SpecRunner {
 public:
  SpecRunner(Spec& spec, std::string source) : spec_(spec), source_(std::move(source)) {}

  void run_line(const std::string& text, int line) {
    line_ = line;
    tokenize(text);
    if (peek().kind == Token::End) return;
    if (peek().kind == Token::Name && peek().text == "for") {
      run_for();
    } else if (is_assignment()) {
      run_assignment();
    } else {
      std::vector<Box*> boxes;
      std::string tree_name;
      bool whole_tree = parse_path(boxes, tree_name);
      run_operation(boxes, tree_name, whole_tree);
    }
    if (peek().kind != Token::End) fail(peek(), "unexpected " + describe(peek()) + " after the statement");
    std::int64_t cells = 0;
    for (const auto& tree : spec_.trees) cells += tree->stored_cells();
    if (cells > kMaxCells)
      fail(tokens_.front(), "the spec's boxes hold more than " + std::to_string(kMaxCells) + " cells");
  }

  [[noreturn]] void fail(const Token& at, const std::string& message) const {
    throw ParseError(source_, line_, at.column, message);
  }

 private:
  void tokenize(const std::string& text) {
    tokens_.clear();
    position_ = 0;
    std::size_t i = 0;
    while (i < text.size()) {
      const unsigned char c = static_cast<unsigned char>(text[i]);
      const int column = static_cast<int>(i) + 1;
      if (c == '#') break;
      if (std::isspace(c)) {
        ++i;
      } else if (std::isalpha(c) || c == '_') {
        std::size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
        tokens_.push_back({Token::Name, text.substr(i, j - i), column});
        i = j;
      } else if (std::isdigit(c)) {
        std::size_t j = i;
        while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
        tokens_.push_back({Token::Number, text.substr(i, j - i), column});
        i = j;
      } else if (std::string("=,.()[]:*-").find(static_cast<char>(c)) != std::string::npos) {
        tokens_.push_back({Token::Punct, std::string(1, static_cast<char>(c)), column});
        ++i;
      } else {
        throw ParseError(source_, line_, column, "unexpected character '" + std::string(1, static_cast<char>(c)) + "'");
      }
    }
    tokens_.push_back({Token::End, "", static_cast<int>(text.size()) + 1});
  }

  const Token& peek(std::size_t ahead = 0) const {
    return tokens_[std::min(position_ + ahead, tokens_.size() - 1)];
  }
  Token take() {
    Token token = peek();
    if (position_ < tokens_.size() - 1) ++position_;
    return token;
  }
  bool at_punct(const char* punct) const { return peek().kind == Token::Punct && peek().text == punct; }
  Token expect_punct(const char* punct, const std::string& context) {
    if (!at_punct(punct)) fail(peek(), "expected '" + std::string(punct) + "'" + context + ", found " + describe(peek()));
    return take();
  }
  Token expect_name(const std::string& what) {
    if (peek().kind != Token::Name) fail(peek(), "expected " + what + ", found " + describe(peek()));
    return take();
  }

  // NAME {, NAME} = ...
  bool is_assignment() const {
    std::size_t i = 0;
    while (true) {
      if (peek(i).kind != Token::Name) return false;
      ++i;
      if (peek(i).kind == Token::Punct && peek(i).text == "=") return true;
      if (!(peek(i).kind == Token::Punct && peek(i).text == ",")) return false;
      ++i;
    }
  }

  void check_new_name(const Token& name) const {
    if (name.text == "box" || name.text == "for" || name.text == "in" || name.text == "div" || name.text == "mod")
      fail(name, "'" + name.text + "' is a reserved word");
  }

  void run_assignment() {
    std::vector<Token> names{take()};
    while (at_punct(",")) {
      take();
      names.push_back(take());
    }
    take();  // '='
    for (const Token& name : names) check_new_name(name);
    if (names.size() == 1 && peek().kind == Token::Name && peek().text == "box") {
      const Token keyword = take();
      expect_punct("(", " after 'box'");
      std::vector<int> shape = parse_int_list("the box's dimension sizes");
      expect_punct(")", " to close 'box('");
      if (spec_.find(names[0].text) != nullptr) fail(names[0], "'" + names[0].text + "' is already a box");
      if (constants_.count(names[0].text)) fail(names[0], "'" + names[0].text + "' is already a number");
      try {
        auto tree = std::make_unique<Tree>(shape);
        spec_.names.push_back(names[0].text);
        spec_.trees.push_back(std::move(tree));
      } catch (const ParseError&) {
        throw;
      } catch (const Error& error) {
        fail(keyword, error.what());
      }
      return;
    }
    std::vector<std::int64_t> values{parse_value()};
    while (at_punct(",")) {
      take();
      values.push_back(parse_value());
    }
    if (values.size() != names.size()) {
      fail(names[0], std::to_string(names.size()) + " names but " + std::to_string(values.size()) + " values");
    }
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (spec_.find(names[i].text) != nullptr) fail(names[i], "'" + names[i].text + "' is already a box");
      constants_[names[i].text] = values[i];
    }
  }

  std::int64_t parse_value() {
    bool negative = false;
    if (at_punct("-")) {
      take();
      negative = true;
    }
    const Token token = take();
    std::int64_t value = 0;
    if (token.kind == Token::Number) {
      if (token.text.size() > 9) fail(token, "number '" + token.text + "' is too large");
      value = std::stoll(token.text);
    } else if (token.kind == Token::Name) {
      auto found = constants_.find(token.text);
      if (found == constants_.end()) {
        fail(token, "unknown name '" + token.text + "' (define it first, e.g. 'X, Y, Z = 0, 1, 2')");
      }
      value = found->second;
    } else {
      fail(token, "expected a number, found " + describe(token));
    }
    return negative ? -value : value;
  }

  int parse_int() {
    const Token at = peek();
    const std::int64_t value = parse_value();
    if (value < -1000000000 || value > 1000000000) fail(at, "number " + std::to_string(value) + " is too large");
    return static_cast<int>(value);
  }

  std::vector<int> parse_int_list(const std::string& what) {
    expect_punct("[", " starting a list of " + what);
    std::vector<int> values{parse_int()};
    while (at_punct(",")) {
      take();
      values.push_back(parse_int());
    }
    expect_punct("]", " to close the list");
    return values;
  }

  Tree& tree_named(const Token& name) {
    for (std::size_t i = 0; i < spec_.names.size(); ++i)
      if (spec_.names[i] == name.text) return *spec_.trees[i];
    fail(name, "unknown box '" + name.text + "'");
  }

  /// Applies the subscripts that follow to `boxes`; true when there were none.
  bool parse_subscripts(std::vector<Box*>& boxes) {
    bool none = true;
    while (at_punct("[")) {
      const Token open = take();
      none = false;
      std::vector<Box*> picked;
      if (at_punct("*")) {
        take();
        for (Box* box : boxes) {
          if (box->is_leaf()) fail(open, "'*' needs a divided box, but this one has no children");
          for (std::size_t i = 0; i < box->child_count(); ++i) picked.push_back(&box->child(i));
        }
      } else {
        std::vector<int> index{parse_int()};
        while (at_punct(",")) {
          take();
          index.push_back(parse_int());
        }
        for (Box* box : boxes) {
          if (box->is_leaf()) fail(open, "subscript on a box that is not divided");
          if (index.size() == 1 && index[0] < 0) fail(open, "child index must not be negative");
          try {
            picked.push_back(index.size() == 1 && box->child_grid().size() != 1
                                 ? &box->child(static_cast<std::size_t>(index[0]))
                                 : &box->child(index));
          } catch (const ParseError&) {
            throw;
          } catch (const Error& error) {
            fail(open, error.what());
          }
        }
      }
      expect_punct("]", " to close the subscript");
      boxes = std::move(picked);
    }
    return none;
  }

  bool parse_path(std::vector<Box*>& boxes, std::string& tree_name) {
    const Token name = expect_name("a box name or 'for'");
    if (constants_.count(name.text)) fail(name, "'" + name.text + "' is a number, not a box");
    boxes = {&tree_named(name).root()};
    tree_name = name.text;
    return parse_subscripts(boxes);
  }

  // for VAR in PATH: VAR[...].op(...)
  void run_for() {
    take();
    const Token variable = expect_name("a loop variable after 'for'");
    const Token in = expect_name("'in'");
    if (in.text != "in") fail(in, "expected 'in', found " + describe(in));
    std::vector<Box*> boxes;
    std::string tree_name;
    const Token looped = peek();
    parse_path(boxes, tree_name);
    expect_punct(":", " after the loop's box");
    std::vector<Box*> children;
    for (Box* box : boxes) {
      if (box->is_leaf()) fail(looped, "'for' needs a divided box, but this one has no children");
      for (std::size_t i = 0; i < box->child_count(); ++i) children.push_back(&box->child(i));
    }
    const Token body = expect_name("'" + variable.text + "' starting the loop's statement");
    if (body.text != variable.text) fail(body, "expected '" + variable.text + "', the loop variable, found " + describe(body));
    parse_subscripts(children);
    run_operation(children, tree_name, false);
  }

  void run_operation(const std::vector<Box*>& boxes, const std::string& tree_name, bool whole_tree) {
    expect_punct(".", " and an operation after the box");
    const Token op = expect_name("an operation (div, tile, mod, cut, map, tilt, zigzag, zorder)");
    expect_punct("(", " after '" + op.text + "'");
    auto each = [&](auto&& apply) {
      try {
        for (Box* box : boxes) apply(*box);
      } catch (const ParseError&) {
        throw;
      } catch (const Error& error) {
        fail(op, error.what());
      }
    };
    if (op.text == "div" || op.text == "tile" || op.text == "mod") {
      const std::vector<int> values = parse_int_list(op.text == "tile" ? "tile sizes" : "divisors");
      expect_punct(")", " to close '" + op.text + "('");
      each([&](Box& box) {
        if (op.text == "div") box.div(values);
        else if (op.text == "tile") box.tile(values);
        else box.mod(values);
      });
    } else if (op.text == "cut") {
      const std::vector<int> divisors = parse_int_list("divisors");
      expect_punct(",", " between cut's divisors and its slicings");
      expect_punct("[", " starting a list of div or mod");
      std::vector<Slicing> slicing;
      do {
        if (!slicing.empty()) take();
        const Token kind = expect_name("div or mod");
        if (kind.text != "div" && kind.text != "mod") fail(kind, "expected div or mod, found " + describe(kind));
        slicing.push_back(kind.text == "div" ? Slicing::Div : Slicing::Mod);
      } while (at_punct(","));
      expect_punct("]", " to close the list");
      expect_punct(")", " to close 'cut('");
      each([&](Box& box) { box.cut(divisors, slicing); });
    } else if (op.text == "tilt" || op.text == "zigzag") {
      const int a = parse_int();
      expect_punct(",", " between " + op.text + "'s arguments");
      const int b = parse_int();
      expect_punct(",", " between " + op.text + "'s arguments");
      const int c = parse_int();
      expect_punct(")", " to close '" + op.text + "('");
      each([&](Box& box) { op.text == "tilt" ? box.tilt(a, b, c) : box.zigzag(a, b, c); });
    } else if (op.text == "zorder") {
      expect_punct(")", " to close 'zorder('");
      each([&](Box& box) { box.zorder(); });
    } else if (op.text == "map" || op.text == "write_map_file") {
      if (!whole_tree) fail(op, op.text + " applies to a whole tree, not to a part of one");
      if (op.text == "map") {
        const Token source = expect_name("the name of the box to map");
        if (constants_.count(source.text)) fail(source, "'" + source.text + "' is a number, not a box");
        const Tree& from = tree_named(source);
        expect_punct(")", " to close 'map('");
        Tree& target = tree_named(Token{Token::Name, tree_name, op.column});
        try {
          target.map(from);
        } catch (const Error& error) {
          fail(op, error.what());
        }
        mapped_ = tree_name;
      } else {
        int depth = 1;  // the argument (a Python file object) is not needed
        while (depth > 0) {
          const Token token = take();
          if (token.kind == Token::End) fail(token, "expected ')' to close 'write_map_file('");
          if (token.kind == Token::Punct && token.text == "(") ++depth;
          if (token.kind == Token::Punct && token.text == ")") --depth;
        }
        written_ = tree_name;
      }
    } else {
      fail(op, "unknown operation '" + op.text + "': expected div, tile, mod, cut, map, tilt, zigzag, zorder or write_map_file");
    }
  }

 public:
  std::string output() const {
    if (!written_.empty()) return written_;
    if (!mapped_.empty()) return mapped_;
    return spec_.names.empty() ? "" : spec_.names.back();
  }

 private:
  Spec& spec_;
  std::string source_;
  int line_ = 0;
  std::vector<Token> tokens_;
  std::size_t position_ = 0;
  std::map<std::string, std::int64_t> constants_;
  std::string mapped_, written_;
};

}  // namespace

const Tree* Spec::find(const std::string& name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return trees[i].get();
  return nullptr;
}

const Tree& Spec::output_tree() const {
  const Tree* tree = find(output);
  if (tree == nullptr) throw Error("the Rubik spec defines no box");
  return *tree;
}

Spec parse_spec(std::istream& in, const std::string& source_name) {
  Spec spec;
  SpecRunner runner(spec, source_name);
  std::string text;
  int line = 0;
  while (std::getline(in, text)) runner.run_line(text, ++line);
  spec.output = runner.output();
  if (spec.trees.empty()) throw ParseError(source_name, line, 0, "the spec defines no box (expected e.g. 'net = box([4, 4, 4])')");
  return spec;
}

Spec read_spec(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("cannot read Rubik spec '" + path + "'");
  return parse_spec(in, path);
}

}  // namespace rubik
}  // namespace tofa
