// "auto": the strategies that apply to the job, each run on it, and the
// placement with the lowest Equation 1 objective (fault_weighted_hop_bytes:
// bytes times the route cost of R(u,v) and R(v,u)). Slurm's block layout is
// one of them, so auto is never worse than it on that objective.
#include <limits>
#include <string>
#include <vector>

#include "../../tofa/error.hpp"
#include "../../tofa/faults.hpp"
#include "../strategies_portfolio.hpp"

namespace tofa {
namespace {

/// Annealing costs tens of ms from about a hundred tasks: beyond, auto
/// leaves it to users who name it.
constexpr int kAnnealMaxTasks = 128;

std::vector<std::string> portfolio(const MappingRequest& request) {
  std::vector<std::string> names{"default-slurm", "greedy", "tofa-compact", "tofa"};
  if (effective_slots(request) > 1) names.push_back("mims");
  if (request.parameters.count("stencil")) names.push_back("stencil-rcb");
  if (request.graph->task_count() <= kAnnealMaxTasks) names.push_back("anneal");
  return names;
}

class AutoMapper : public Mapper {
 public:
  Placement map(const MappingRequest& request) const override {
    check_capacity(request);
    const std::vector<double> outage =
        request.outage.empty() ? std::vector<double>(request.topology->node_count(), 0.0)
                               : request.outage;
    Placement best;
    double best_cost = std::numeric_limits<double>::infinity();
    std::string first_error;
    for (const std::string& name : portfolio(request)) {
      Placement placement;
      try {
        placement = make_mapper(name)->map(request);
      } catch (const Error& e) {
        if (first_error.empty()) first_error = name + ": " + e.what();
        continue;
      }
      const double cost = fault_weighted_hop_bytes(*request.topology, *request.graph, placement,
                                                   outage, request.fault_cost);
      if (cost < best_cost) {
        best_cost = cost;
        best = std::move(placement);
      }
    }
    if (best.empty() && request.graph->task_count() > 0) throw Error(first_error);
    return best;
  }
};

}  // namespace

std::unique_ptr<Mapper> make_auto_mapper() { return std::make_unique<AutoMapper>(); }

}  // namespace tofa
