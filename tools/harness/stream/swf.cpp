// SWF reader and writer.
#include "swf.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "base/error.hpp"

namespace tofa::harness {
namespace {

const char* const kFieldNames[kSwfFields] = {
    "job number",       "submit time",         "wait time",      "run time",
    "allocated processors", "average CPU time", "used memory",    "requested processors",
    "requested time",   "requested memory",    "status",         "user id",
    "group id",         "executable",          "queue",          "partition",
    "preceding job",    "think time"};

struct Token {
  std::string text;
  int column = 0;  // 1-based
};

std::vector<Token> split(const std::string& line) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i == line.size()) break;
    const std::size_t begin = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    tokens.push_back({line.substr(begin, i - begin), static_cast<int>(begin) + 1});
  }
  return tokens;
}

/// A decimal number (digits, sign, point, exponent): no hex, inf or nan.
bool parse_number(const std::string& text, double* value) {
  if (text.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
  const char* begin = text.c_str();
  char* end = nullptr;
  const double parsed = std::strtod(begin, &end);
  if (end != begin + text.size() || !std::isfinite(parsed)) return false;
  *value = parsed;
  return true;
}

bool is_integer_field(int field) { return field == 0 || field == 4 || field == 7 || field == 11; }

std::string trim(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  const std::size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

/// "MaxProcs: 512" -> 512 under `key`; leaves *value alone otherwise.
void header_number(const std::string& header, const std::string& key, long* value) {
  const std::string text = trim(header);
  if (text.compare(0, key.size() + 1, key + ":") != 0) return;
  double number = 0;
  const std::string rest = trim(text.substr(key.size() + 1));
  if (parse_number(rest, &number) && number >= 0 && number < 1e15 && number == std::floor(number))
    *value = static_cast<long>(number);
}

std::string format_number(double value) {
  char buffer[40];
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  else
    std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

}  // namespace

SwfTrace parse_swf(std::istream& in, const std::string& source_name) {
  SwfTrace trace;
  std::string line;
  int line_number = 0;
  double field[kSwfFields];
  while (std::getline(in, line)) {
    ++line_number;
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] == ';') {
      std::string header = line.substr(first + 1);
      if (!header.empty() && header.back() == '\r') header.pop_back();
      header_number(header, "MaxProcs", &trace.max_procs);
      header_number(header, "MaxNodes", &trace.max_nodes);
      trace.header.push_back(std::move(header));
      continue;
    }
    const std::vector<Token> tokens = split(line);
    if (tokens.size() != static_cast<std::size_t>(kSwfFields)) {
      throw ParseError(source_name, line_number, 0,
                       "expected " + std::to_string(kSwfFields) + " fields, found " +
                           std::to_string(tokens.size()));
    }
    for (int f = 0; f < kSwfFields; ++f) {
      const Token& token = tokens[f];
      if (!parse_number(token.text, &field[f])) {
        throw ParseError(source_name, line_number, token.column,
                         std::string("expected a number for field ") + std::to_string(f + 1) +
                             " (" + kFieldNames[f] + "), found '" + token.text + "'");
      }
      if (is_integer_field(f) &&
          (field[f] != std::floor(field[f]) || std::fabs(field[f]) > 2147483647.0)) {
        throw ParseError(source_name, line_number, token.column,
                         std::string("expected an integer for field ") + std::to_string(f + 1) +
                             " (" + kFieldNames[f] + "), found '" + token.text + "'");
      }
    }
    StreamJob job;
    job.id = static_cast<long>(field[0]);
    job.submit = field[1];
    job.runtime = field[3];
    job.tasks = static_cast<int>(field[7] > 0 ? field[7] : field[4]);
    job.requested_time = field[8] > 0 ? field[8] : job.runtime;
    job.user = static_cast<int>(field[11]);
    if (job.submit < 0) {
      ++trace.skipped.no_submit;
    } else if (job.runtime <= 0) {
      ++trace.skipped.no_runtime;
    } else if (job.tasks <= 0) {
      ++trace.skipped.no_tasks;
    } else {
      trace.jobs.push_back(job);
    }
  }
  if (in.bad()) throw Error(source_name + ": read error");
  return trace;
}

SwfTrace read_swf(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot open for reading");
  return parse_swf(in, path);
}

void write_swf(std::ostream& out, const std::vector<StreamJob>& jobs,
               const std::vector<std::string>& comment, long max_procs) {
  out << "; Version: 2.2\n";
  for (std::string line : comment) {
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';
    out << "; " << line << "\n";
  }
  out << "; MaxJobs: " << jobs.size() << "\n";
  out << "; MaxRecords: " << jobs.size() << "\n";
  if (max_procs >= 1) out << "; MaxProcs: " << max_procs << "\n";
  out << ";\n";
  for (const StreamJob& job : jobs) {
    const std::string tasks = std::to_string(job.tasks);
    out << job.id << ' ' << format_number(job.submit) << " -1 " << format_number(job.runtime)
        << ' ' << tasks << " -1 -1 " << tasks << ' ' << format_number(job.requested_time)
        << " -1 1 " << job.user << " -1 -1 -1 -1 -1 -1\n";
  }
}

void write_swf_file(const std::string& path, const std::vector<StreamJob>& jobs,
                    const std::vector<std::string>& comment, long max_procs) {
  std::ofstream out(path);
  if (!out) throw Error(path + ": cannot open for writing");
  write_swf(out, jobs, comment, max_procs);
  out.flush();
  if (!out) throw Error(path + ": write error");
}

}  // namespace tofa::harness
