#include "service/running_links.hpp"

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
    next.emplace(job.job,
                 Counted{job.placement, sparse_link_loads(*job.graph, topology, job.placement)});
  }
  std::lock_guard<std::mutex> lock(mutex_);
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

}  // namespace tofa
