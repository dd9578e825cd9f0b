#include "service/running_links.hpp"

#include <algorithm>

#include "metrics/interference.hpp"
#include "metrics/metrics.hpp"

namespace tofa {

void RunningLinks::update(const Topology& topology, const std::vector<Job>& running) {
  std::map<unsigned, Counted> next;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const Job& job : running) {
      const auto found = jobs_.find(job.job);
      if (found != jobs_.end() && found->second.placement == job.placement)
        next.emplace(job.job, found->second);
    }
  }
  for (const Job& job : running) {  // outside the lock: a route walk per edge
    if (next.count(job.job) || !job.graph) continue;
    next.emplace(job.job, Counted{job.placement, sparse_link_loads(*job.graph, topology, job.placement),
                                  job.graph});
  }
  std::lock_guard<std::mutex> lock(mutex_);
  const bool same = next.size() == jobs_.size() &&
                    std::equal(next.begin(), next.end(), jobs_.begin(), [](const auto& a, const auto& b) {
                      return a.first == b.first && a.second.placement == b.second.placement;
                    });
  if (!same || !known_) interference_.reset();
  jobs_ = std::move(next);
  link_slots_ = topology.link_slot_count();
  known_ = true;
}

bool RunningLinks::known() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return known_;
}

std::vector<double> RunningLinks::loads(std::optional<unsigned> except) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return loads_locked(except);
}

std::vector<double> RunningLinks::loads_locked(std::optional<unsigned> except) const {
  std::vector<double> total(known_ ? link_slots_ : 0, 0.0);
  for (const auto& [job, counted] : jobs_)
    if (job != except)
      for (const auto& [link, bytes] : counted.links) total[link] += bytes;
  return total;
}

std::vector<int> RunningLinks::jobs_per_link(const Topology* both_ways_in) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<int> count(known_ ? link_slots_ : 0, 0);
  std::vector<unsigned> last_counted(count.size(), 0);  // 1 + the job's index
  unsigned index = 0;
  for (const auto& entry : jobs_) {
    ++index;
    for (const auto& [link, bytes] : entry.second.links) {
      const int reverse = both_ways_in ? both_ways_in->reverse_link_id(link) : link;
      for (const int l : {link, reverse})
        if (last_counted[l] != index) {
          last_counted[l] = index;
          ++count[l];
        }
    }
  }
  return count;
}

std::vector<std::pair<int, double>> RunningLinks::job_links(unsigned job) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = jobs_.find(job);
  return found == jobs_.end() ? std::vector<std::pair<int, double>>{} : found->second.links;
}

void RunningLinks::add_interference_to(FaultCost& cost, const Topology& topology, double weight,
                                       std::optional<unsigned> job) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!known_) return;
  if (job && jobs_.count(*job)) {  // placed again while it runs: its own links left out
    interference_locked(cost, topology, weight, job);
    return;
  }
  if (!interference_ || interference_->weight != weight || interference_->shared_links != cost.shared_links) {
    FaultCost made = cost;
    interference_locked(made, topology, weight, std::nullopt);
    interference_ = Interference{weight, cost.shared_links, made.link_extra, made.link_extra_bytes,
                                 made.link_criticality};
  }
  cost.link_extra = interference_->link_extra;
  cost.link_extra_bytes = interference_->link_extra_bytes;
  cost.link_criticality = interference_->link_criticality;
}

void RunningLinks::interference_locked(FaultCost& cost, const Topology& topology, double weight,
                                       std::optional<unsigned> except) const {
  add_interference(cost, topology, loads_locked(except), weight);
  if (!cost.shared_links || !cost.link_extra) return;
  std::vector<RunningJobRoutes> routes;
  for (const auto& [id, counted] : jobs_)
    if (id != except && counted.graph) routes.push_back({counted.graph.get(), &counted.placement});
  add_link_criticality(cost, topology, routes, weight);
}

}  // namespace tofa
