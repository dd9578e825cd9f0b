// The outage probability per topology node that a mapping request carries,
// shared by the request's copies: on a 65,536-node torus it is 512 KB, and
// auto copies its request for most of its searches (the window, the clear
// box, annealing, the route-around search). Fresh pages cost ~20 us each on
// first touch, so each copy was 2.6 ms of a 64-task job's 11.5 ms budget.
// A write copies the table first when another request shares it.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace tofa {

class OutageTable {
 public:
  OutageTable() = default;
  OutageTable(std::vector<double> values)  // NOLINT: a vector is an outage table
      : shared_(std::make_shared<std::vector<double>>(std::move(values))) {}
  OutageTable& operator=(std::vector<double> values) { return *this = OutageTable(std::move(values)); }

  const std::vector<double>& values() const { return shared_ ? *shared_ : empty_table(); }
  operator const std::vector<double>&() const { return values(); }  // NOLINT

  bool empty() const { return values().empty(); }
  std::size_t size() const { return values().size(); }
  double operator[](std::size_t node) const { return values()[node]; }
  std::vector<double>::const_iterator begin() const { return values().begin(); }
  std::vector<double>::const_iterator end() const { return values().end(); }

  friend bool operator==(const OutageTable& a, const OutageTable& b) {
    return a.values() == b.values();
  }

  double& operator[](std::size_t node) { return writable()[node]; }
  void assign(std::size_t nodes, double p) { *this = std::vector<double>(nodes, p); }
  void clear() { shared_.reset(); }

 private:
  static const std::vector<double>& empty_table() {
    static const std::vector<double> none;
    return none;
  }
  std::vector<double>& writable() {
    if (!shared_) shared_ = std::make_shared<std::vector<double>>();
    else if (shared_.use_count() > 1) shared_ = std::make_shared<std::vector<double>>(*shared_);
    return *shared_;
  }

  std::shared_ptr<std::vector<double>> shared_;
};

}  // namespace tofa
