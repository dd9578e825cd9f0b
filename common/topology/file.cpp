// The topology file (tofa.conf): a Dims line, then NodeName lines that give
// every coordinate of the torus a name.
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/error.hpp"
#include "topology/topology.hpp"

namespace tofa {
namespace {

/// One "Key=Value" token; columns are 1-based byte offsets in the line.
struct Field {
  std::string key;  ///< canonical spelling ("Dims", ...) or as written when unknown
  std::string value;
  int key_column = 0;
  int value_column = 0;
};

const char* const kKeys[] = {"Dims", "Wrap", "CoresPerNode", "NodeName", "Coord"};

bool same_key(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts{""};
  for (char c : text) {
    if (c == separator)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

/// A whole string of at most 9 digits, optionally after '-' when `allow_sign`.
bool parse_int(const std::string& text, bool allow_sign, int& value) {
  const size_t digits_at = allow_sign && !text.empty() && text[0] == '-' ? 1 : 0;
  const size_t digits = text.size() - digits_at;
  if (digits == 0 || digits > 9) return false;
  for (size_t i = digits_at; i < text.size(); ++i)
    if (text[i] < '0' || text[i] > '9') return false;
  value = std::stoi(text);
  return true;
}

std::string join(const std::vector<int>& values, char separator) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += separator;
    text += std::to_string(values[i]);
  }
  return text;
}

class TopologyFileParser {
 public:
  TopologyFileParser(std::istream& in, const std::string& source) : in_(in), source_(source) {}

  Topology parse() {
    for (std::string line; std::getline(in_, line);) {
      ++line_number_;
      parse_line(line);
    }
    const int last_line = std::max(line_number_, 1);
    if (!topology_)
      throw ParseError(source_, last_line, 0, "expected 'Dims=AxBxC', found no Dims line");
    int missing = 0;
    int first_missing = -1;
    for (int id = 0; id < topology_->node_count(); ++id) {
      if (!names_[id].empty()) continue;
      if (missing++ == 0) first_missing = id;
    }
    if (missing == 1)
      throw ParseError(source_, last_line, 0,
                       "1 coordinate has no NodeName: " + coord_text(first_missing));
    if (missing > 1)
      throw ParseError(source_, last_line, 0,
                       std::to_string(missing) + " coordinates have no NodeName, the first is " +
                           coord_text(first_missing));
    topology_->set_node_names(names_);
    return std::move(*topology_);
  }

 private:
  ParseError error(int column, const std::string& message) const {
    return ParseError(source_, line_number_, column, message);
  }

  void parse_line(std::string line) {
    const size_t comment = line.find('#');
    if (comment != std::string::npos) line.erase(comment);
    const std::vector<Field> fields = split_fields(line);
    if (fields.empty()) return;
    const Field* node_name = find(fields, "NodeName");
    if (node_name) {
      for (const Field& field : fields)
        if (field.key != "NodeName" && field.key != "Coord")
          throw error(field.key_column, "'" + field.key + "' belongs on the Dims line");
      if (!topology_) throw error(1, "expected 'Dims=AxBxC' before any NodeName line");
      parse_node_line(*node_name, find(fields, "Coord"));
      return;
    }
    for (const Field& field : fields)
      if (field.key == "Coord")
        throw error(field.key_column, "'Coord' belongs on a NodeName line");
    const Field* dims = find(fields, "Dims");
    if (!dims)
      throw error(fields[0].key_column, "'" + fields[0].key + "' belongs on the Dims line");
    if (topology_)
      throw error(dims->key_column,
                  "Dims is given twice (first on line " + std::to_string(dims_line_) + ")");
    parse_dims_line(*dims, find(fields, "Wrap"), find(fields, "CoresPerNode"));
  }

  std::vector<Field> split_fields(const std::string& line) const {
    std::vector<Field> fields;
    size_t pos = 0;
    while (true) {
      pos = line.find_first_not_of(" \t\r\v\f", pos);
      if (pos == std::string::npos) return fields;
      const size_t end = std::min(line.find_first_of(" \t\r\v\f", pos), line.size());
      const std::string token = line.substr(pos, end - pos);
      const int column = static_cast<int>(pos) + 1;
      const size_t equals = token.find('=');
      if (equals == std::string::npos || equals == 0)
        throw error(column, "expected 'Key=Value', found '" + token + "'");
      Field field{token.substr(0, equals), token.substr(equals + 1), column,
                  column + static_cast<int>(equals) + 1};
      bool known = false;
      for (const char* key : kKeys)
        if (same_key(field.key, key)) {
          field.key = key;
          known = true;
        }
      if (!known)
        throw error(column, "unknown key '" + field.key +
                                "': expected Dims, Wrap, CoresPerNode, NodeName or Coord");
      if (find(fields, field.key))
        throw error(column, "'" + field.key + "' is given twice on one line");
      fields.push_back(field);
      pos = end;
    }
  }

  static const Field* find(const std::vector<Field>& fields, const std::string& key) {
    for (const Field& field : fields)
      if (field.key == key) return &field;
    return nullptr;
  }

  void parse_dims_line(const Field& dims_field, const Field* wrap_field,
                       const Field* cores_field) {
    std::vector<int> dims;
    for (const std::string& part : split(dims_field.value, 'x')) {
      int size = 0;
      if (!parse_int(part, false, size) || size < 1)
        throw error(dims_field.value_column, "bad Dims '" + dims_field.value +
                                                 "': expected positive integers separated by 'x'");
      dims.push_back(size);
    }
    std::vector<bool> wrap(dims.size(), true);
    if (wrap_field) wrap = parse_wrap(*wrap_field, dims.size());
    int cores = 1;
    if (cores_field && (!parse_int(cores_field->value, false, cores) || cores < 1))
      throw error(cores_field->value_column, "bad CoresPerNode '" + cores_field->value +
                                                 "': expected a positive integer");
    try {
      topology_ = std::make_unique<Topology>(dims, wrap, cores);
    } catch (const Error& e) {
      throw error(dims_field.value_column, e.what());
    }
    dims_line_ = line_number_;
    names_.assign(topology_->node_count(), "");
    name_lines_.assign(topology_->node_count(), 0);
  }

  std::vector<bool> parse_wrap(const Field& field, size_t dimension_count) const {
    std::vector<bool> wrap;
    for (const std::string& part : split(field.value, ',')) {
      const std::string word = lower(part);
      if (word != "yes" && word != "no")
        throw error(field.value_column,
                    "bad Wrap value '" + part + "': expected yes or no");
      wrap.push_back(word == "yes");
    }
    if (wrap.size() == 1) return std::vector<bool>(dimension_count, wrap[0]);
    if (wrap.size() != dimension_count) {
      const std::string needed =
          dimension_count == 1 ? "1 value" : "1 or " + std::to_string(dimension_count) + " values";
      throw error(field.value_column,
                  "Wrap needs " + needed + ", found " + std::to_string(wrap.size()));
    }
    return wrap;
  }

  /// The node id of a Coord value.
  int parse_coord(const Field& field) const {
    const std::vector<int>& dims = topology_->dims();
    const std::vector<std::string> parts = split(field.value, ',');
    std::vector<int> coords;
    for (const std::string& part : parts) {
      int value = 0;
      if (parts.size() != dims.size() || !parse_int(part, true, value))
        throw error(field.value_column, "bad Coord '" + field.value + "': expected " +
                                            std::to_string(dims.size()) +
                                            " integers separated by ','");
      coords.push_back(value);
    }
    for (size_t d = 0; d < dims.size(); ++d)
      if (coords[d] < 0 || coords[d] >= dims[d])
        throw error(field.value_column,
                    "Coord " + join(coords, ',') + " is outside " + join(dims, 'x'));
    return topology_->node_at(coords);
  }

  void parse_node_line(const Field& names_field, const Field* coord_field) {
    std::vector<std::string> names;
    try {
      names = expand_hostlist(names_field.value);
    } catch (const Error& e) {
      throw error(names_field.value_column, e.what());
    }
    const int start = coord_field ? parse_coord(*coord_field) : cursor_;
    if (static_cast<long long>(start) + static_cast<long long>(names.size()) >
        topology_->node_count())
      throw error(names_field.value_column, "NodeName " + names_field.value +
                                                " runs past the last coordinate of " +
                                                join(topology_->dims(), 'x'));
    for (size_t i = 0; i < names.size(); ++i) {
      const int id = start + static_cast<int>(i);
      const auto seen = line_of_name_.find(names[i]);
      if (seen != line_of_name_.end())
        throw error(names_field.value_column, "node '" + names[i] +
                                                  "' is listed twice (first on line " +
                                                  std::to_string(seen->second) + ")");
      if (!names_[id].empty())
        throw error(names_field.value_column,
                    "coordinate " + coord_text(id) + " is given to '" + names[i] + "' and to '" +
                        names_[id] + "' (line " + std::to_string(name_lines_[id]) + ")");
      names_[id] = names[i];
      name_lines_[id] = line_number_;
      line_of_name_.emplace(names[i], line_number_);
    }
    cursor_ = start + static_cast<int>(names.size());
  }

  std::string coord_text(int id) const { return join(topology_->coords(id), ','); }

  std::istream& in_;
  const std::string source_;
  int line_number_ = 0;
  std::unique_ptr<Topology> topology_;  // set by the Dims line
  int dims_line_ = 0;
  std::vector<std::string> names_;  // per node id; empty until named
  std::vector<int> name_lines_;     // per node id: the line that named it
  std::unordered_map<std::string, int> line_of_name_;
  int cursor_ = 0;  // the next id for a NodeName line without Coord
};

}  // namespace

Topology parse_topology(std::istream& in, const std::string& source_name) {
  return TopologyFileParser(in, source_name).parse();
}

Topology read_topology_file(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw Error("cannot open topology file '" + path + "': " + std::strerror(errno));
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))  // opens, but cannot be read
    throw Error("cannot open topology file '" + path + "': " + std::strerror(EISDIR));
  return parse_topology(in, path);
}

}  // namespace tofa
