// Node-sized tables kept per thread between calls, all T{} between uses. On
// a 65,536-node torus a fresh table of ints is 64 pages, and the first touch
// of a page costs ~20 us on the project's 2-core machine: fresh tables per
// job took most of a 64-task job's 11.5 ms budget before any search began.
#pragma once

#include <cstddef>
#include <vector>

namespace tofa {

/// The thread's table for `Tag` with at least `size` entries, all T{}. Its
/// user sets entries and, on every way out, puts them back (ZeroedOnExit).
/// Each Tag is one user at a time: a function that may call itself needs its own.
template <typename T, typename Tag>
std::vector<T>& zeroed_scratch(std::size_t size) {
  thread_local std::vector<T> table;
  if (table.size() < size) table.resize(size, T{});
  return table;
}

/// Puts table[i] back to T{} for every i of `indices` when it goes out of
/// scope (a return or an exception).
template <typename T, typename Indices>
class ZeroedOnExit {
 public:
  ZeroedOnExit(std::vector<T>& table, const Indices& indices) : table_(table), indices_(indices) {}
  ZeroedOnExit(const ZeroedOnExit&) = delete;
  ZeroedOnExit& operator=(const ZeroedOnExit&) = delete;
  ~ZeroedOnExit() {
    for (auto i : indices_) table_[i] = T{};
  }

 private:
  std::vector<T>& table_;
  const Indices& indices_;
};

}  // namespace tofa
