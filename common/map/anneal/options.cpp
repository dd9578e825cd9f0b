#include "options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "base/error.hpp"

namespace tofa {
namespace anneal {
namespace {

[[noreturn]] void bad(const std::string& key, const std::string& expected,
                      const std::string& value) {
  throw Error("anneal: parameter " + key + ": expected " + expected + ", found '" + value + "'");
}

double number(const std::string& key, const std::string& value, const std::string& expected,
              const std::function<bool(double)>& valid) {
  if (value.empty()) bad(key, expected, value);
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(value.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(parsed) || !valid(parsed))
    bad(key, expected, value);
  return parsed;
}

/// Runs `parse` on the value when the key is set, rewording its Error.
template <typename Parse>
void with(const std::map<std::string, std::string>& parameters, const std::string& key,
          const std::string& expected, Parse parse) {
  const auto it = parameters.find(key);
  if (it == parameters.end()) return;
  try {
    parse(it->second);
  } catch (const Error&) {
    bad(key, expected, it->second);
  }
}

}  // namespace

AnnealOptions parse_anneal_options(const std::map<std::string, std::string>& parameters) {
  AnnealOptions options;
  with(parameters, "metric", "hops, scaled or euclid",
       [&](const std::string& v) { options.metric = parse_distance_metric(v); });
  with(parameters, "start", "grow, heuristic, basic, rank, random or scotch",
       [&](const std::string& v) { options.start = parse_start_kind(v); });
  with(parameters, "attempts", "a whole number from 1 to 10000", [&](const std::string& v) {
    options.grow_attempts = static_cast<int>(
        number("attempts", v, "a whole number from 1 to 10000",
               [](double x) { return x >= 1 && x <= 10000 && x == std::floor(x); }));
  });
  with(parameters, "divide", "auto, no or yes", [&](const std::string& v) {
    if (v == "auto") options.divide = DivideMode::Auto;
    else if (v == "no") options.divide = DivideMode::Never;
    else if (v == "yes") options.divide = DivideMode::Always;
    else throw Error(v);
  });
  with(parameters, "limit", "a number in (0, 1]", [&](const std::string& v) {
    options.limit = number("limit", v, "a number in (0, 1]", [](double x) { return x > 0 && x <= 1; });
  });
  with(parameters, "iterations", "a positive whole number", [&](const std::string& v) {
    const double n = number("iterations", v, "a positive whole number",
                            [](double x) { return x >= 1 && x < 1e18 && x == std::floor(x); });
    options.iterations = static_cast<std::uint64_t>(n);
  });
  with(parameters, "sweeps", "a positive number", [&](const std::string& v) {
    options.sweeps = number("sweeps", v, "a positive number", [](double x) { return x > 0; });
  });
  with(parameters, "budget", "a positive number of seconds", [&](const std::string& v) {
    options.budget_seconds =
        number("budget", v, "a positive number of seconds", [](double x) { return x > 0; });
  });
  with(parameters, "load", "balanced or slots", [&](const std::string& v) {
    if (v == "balanced") options.balanced_load = true;
    else if (v == "slots") options.balanced_load = false;
    else throw Error(v);
  });
  with(parameters, "faulty", "avoid or ignore", [&](const std::string& v) {
    if (v == "avoid") options.avoid_faulty = true;
    else if (v == "ignore") options.avoid_faulty = false;
    else throw Error(v);
  });
  with(parameters, "anneal", "yes, no or descent", [&](const std::string& v) {
    if (v == "yes") options.search = Search::Anneal;
    else if (v == "no") options.search = Search::None;
    else if (v == "descent") options.search = Search::Descent;
    else throw Error(v);
  });
  with(parameters, "progress", "auto, yes or no",
       [&](const std::string& v) { options.progress = parse_progress_mode(v); });
  with(parameters, "steps", "a whole number from 1 to 10000", [&](const std::string& v) {
    options.chain.steps = static_cast<int>(
        number("steps", v, "a whole number from 1 to 10000",
               [](double x) { return x >= 1 && x <= 10000 && x == std::floor(x); }));
  });
  with(parameters, "proposal", "uniform, local or mixed",
       [&](const std::string& v) { options.chain.proposal = parse_proposal_kind(v); });
  with(parameters, "accept", "a number in (0, 1)", [&](const std::string& v) {
    options.chain.initial_acceptance =
        number("accept", v, "a number in (0, 1)", [](double x) { return x > 0 && x < 1; });
  });
  with(parameters, "plateau", "a number >= 0 or off", [&](const std::string& v) {
    options.chain.plateau_tolerance =
        v == "off" ? -1.0
                   : number("plateau", v, "a number >= 0 or off", [](double x) { return x >= 0; });
  });
  return options;
}

}  // namespace anneal
}  // namespace tofa
