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
  return jobs_per_link_locked(both_ways_in);
}

std::vector<int> RunningLinks::jobs_per_link_locked(const Topology* both_ways_in) const {
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
                                       std::optional<unsigned> job, LinkCostPatch* own_links) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!known_) return;
  const auto running = job ? jobs_.find(*job) : jobs_.end();
  if (running != jobs_.end() && cost.shared_links) {
    interference_locked(cost, topology, weight, job);
    return;
  }
  if (!interference_ || interference_->weight != weight || interference_->shared_links != cost.shared_links) {
    FaultCost made = cost;
    Interference kept;
    if (cost.shared_links) {
      interference_locked(made, topology, weight, std::nullopt);
    } else {
      kept.loads = loads_locked(std::nullopt);
      add_interference(made, topology, kept.loads, weight);
      kept.jobs_per_link = jobs_per_link_locked(nullptr);
      kept.loaded_links = static_cast<int>(
          std::count_if(kept.loads.begin(), kept.loads.end(), [](double b) { return b > 0; }));
    }
    kept.weight = weight;
    kept.shared_links = cost.shared_links;
    kept.link_extra = made.link_extra;
    kept.link_extra_bytes = made.link_extra_bytes;
    kept.link_criticality = made.link_criticality;
    interference_ = std::move(kept);
  }
  cost.link_extra = interference_->link_extra;
  cost.link_extra_bytes = interference_->link_extra_bytes;
  cost.link_criticality = interference_->link_criticality;
  if (running == jobs_.end() || !cost.link_extra) return;
  std::optional<LinkCostPatch> freed = own_links_freed(running->second);
  if (!freed) {  // no other job loads a link
    cost.link_extra = nullptr;
    cost.link_extra_bytes = 0;
  } else if (own_links) {
    *own_links = std::move(*freed);
  } else {
    cost.link_extra = patched_link_costs(cost.link_extra, *freed);
  }
}

std::optional<LinkCostPatch> RunningLinks::own_links_freed(const Counted& job) const {
  const Interference& all = *interference_;
  LinkCostPatch freed;
  freed.reserve(job.links.size());
  int left_empty = 0;
  for (const auto& [link, bytes] : job.links) {
    const auto l = static_cast<std::size_t>(link);
    const bool alone = all.jobs_per_link[l] <= 1;
    left_empty += alone;
    freed.emplace_back(link, alone ? 0.0 : std::max(0.0, all.loads[l] - bytes) / all.link_extra_bytes);
  }
  if (left_empty == all.loaded_links) return std::nullopt;
  return freed;
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
