#include "metrics/interference.hpp"

#include <string>

#include "base/error.hpp"
#include "metrics/metrics.hpp"

namespace tofa {

std::shared_ptr<const std::vector<double>> interference_link_costs(
    const std::vector<double>& background, double weight) {
  if (!(weight >= 0)) throw Error("interference weight must be >= 0, got " + std::to_string(weight));
  double total = 0;
  int loaded = 0;
  for (double load : background)
    if (load > 0) {
      total += load;
      ++loaded;
    }
  if (weight == 0 || loaded == 0) return nullptr;
  auto costs = std::make_shared<std::vector<double>>(background.size(), 0.0);
  const double mean = total / loaded;
  for (std::size_t l = 0; l < background.size(); ++l)
    if (background[l] > 0) (*costs)[l] = weight * background[l] / mean;
  return costs;
}

double shared_traffic_fraction(const CommGraph& graph, const Topology& topology,
                               const std::vector<int>& placement,
                               const std::vector<double>& background) {
  if (background.size() != static_cast<std::size_t>(topology.link_slot_count()))
    throw Error("link loads: " + std::to_string(background.size()) + " entries, expected " +
                std::to_string(topology.link_slot_count()));
  const std::vector<double> own = link_loads(graph, topology, placement);
  double total = 0, shared = 0;
  for (std::size_t l = 0; l < own.size(); ++l) {
    total += own[l];
    if (background[l] > 0) shared += own[l];
  }
  return total > 0 ? shared / total : 0.0;
}

}  // namespace tofa
