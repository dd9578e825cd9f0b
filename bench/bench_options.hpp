// Command-line options of the bench programs: "--name VALUE" pairs and flags.
#pragma once

#include <cstdio>
#include <functional>
#include <iostream>
#include <stdexcept>
#include <string>

namespace tofa_bench {

/// Calls apply(arg, value) for each argument; `value()` takes the next one
/// (an error when there is none). apply throws for an unknown option.
/// False, with "PROGRAM: why" on stderr, when an option is bad.
inline bool parse_options(int argc, char** argv, const char* program,
                          const std::function<void(const std::string& arg,
                                                   const std::function<std::string()>& value)>& apply) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::function<std::string()> value = [&] {
      if (i + 1 >= argc) throw std::runtime_error(arg + ": expected a value");
      return std::string(argv[++i]);
    };
    try {
      apply(arg, value);
    } catch (const std::exception& e) {
      std::cerr << program << ": " << e.what() << "\n";
      return false;
    }
  }
  return true;
}

/// The options of the benches over the examples: [--examples DIR] [--quick].
struct ExamplesOptions {
  std::string examples = "examples";
  bool quick = false;
};

inline bool parse_examples_options(int argc, char** argv, const char* program,
                                   ExamplesOptions& options) {
  const bool ok = parse_options(argc, argv, program, [&](const std::string& arg, const auto& value) {
    if (arg == "--examples") options.examples = value();
    else if (arg == "--quick") options.quick = true;
    else throw std::runtime_error("unknown option " + arg);
  });
  if (!ok) std::fprintf(stderr, "usage: %s [--examples DIR] [--quick]\n", program);
  return ok;
}

}  // namespace tofa_bench
